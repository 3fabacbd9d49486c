// The games' names and a time control in words: shared by the lobby, the game page, the
// tournament page and the analysis board, and kept apart from any of them so that a page
// loads only the words, not another page's module.

export const RULESET_NAMES = /** @type {Record<string, string>} */ ({
  omweso: 'Omweso', mweiso: 'Mweiso', oware: 'Oware',
});

/** The tournament systems in words. */
export const SYSTEM_WORDS = /** @type {Record<string, string>} */ ({
  swiss: 'Swiss', 'round-robin': 'round-robin', 'double-round-robin': 'double round-robin',
});

/**
 * The time control in words.
 * @param {import('../lobby/lobby.js').TimeControl} tc
 */
export function describeTimeControl(tc) {
  const parts = [];
  parts.push(tc.referee_seconds == null ? 'no referee count' : `${tc.referee_seconds} s referee count`);
  parts.push(tc.move_limit_seconds == null ? 'no move limit' : `${Math.round(tc.move_limit_seconds / 60 * 10) / 10} min move limit`);
  if (tc.akakyala) parts.push('akakyala on');
  return parts.join(', ');
}
