// Counts in words, one rule for the whole site: "1 move", "2 moves", "½ point" (a point
// or less, and more than none, reads as one: "½ points" is wrong), "0 points".

/**
 * `n` and its noun, singular for exactly one.
 * @param {number} n @param {string} one @param {string} [many] the plural, when not `one` + "s"
 */
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many || `${one}s`}`;
}

/**
 * A points figure already written (`shown`: "½", "1½", "2.25") and its noun: "point" for
 * more than none up to one ("½ point", "1 point"), else "points".
 * @param {number} points @param {string} shown
 */
export function pointsPhrase(points, shown) {
  return `${shown} ${points > 0 && points <= 1 ? 'point' : 'points'}`;
}
