// Where a table is played, as the hall screen and the printed sheets say it: online, or
// over the board (a wooden board in the hall), relayed live or not (docs/protocol.md
// "Tournaments": the pairing's `played_at`, else the tournament's default). A server from
// before over-the-board play sends neither: every table is online there.

/** @typedef {import('../tournament/tournamentstore.js').PairingView} PairingView */

/**
 * @param {PairingView} pairing
 * @param {{settings: object}} snapshot
 * @returns {'online' | 'board'}
 */
export function playedAt(pairing, snapshot) {
  const at = /** @type {any} */ (pairing).played_at ?? /** @type {any} */ (snapshot.settings).played_at;
  return at === 'board' ? 'board' : 'online';
}

/**
 * The table's place in a few words: `online`, `over the board`, or `relayed live` (a wooden
 * board whose moves a relay enters, followed on the screen like an online game).
 * @param {PairingView} pairing @param {'online' | 'board'} where
 */
export function whereWords(pairing, where) {
  if (where === 'online') return 'online';
  return /** @type {any} */ (pairing).board?.relayed ? 'relayed live' : 'over the board';
}
