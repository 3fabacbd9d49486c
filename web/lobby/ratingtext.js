// How a rating reads in the lobby and on the game page: `1623`, or `1500?` while it is
// provisional (docs/ratings.md#provisional-ratings), as lichess writes it.

/** @typedef {{rating: number, provisional: boolean}} RatingBadge */

/** @param {RatingBadge | null | undefined} badge @returns {string} */
export function ratingText(badge) {
  if (!badge) return '';
  return `${badge.rating}${badge.provisional ? '?' : ''}`;
}

/** A rating change as shown after a rated game: `+12`, `−8` (a minus sign), `±0`. @param {number} change */
export function changeText(change) {
  if (change > 0) return `+${change}`;
  if (change < 0) return `\u2212${-change}`;
  return '\u00b10';
}
