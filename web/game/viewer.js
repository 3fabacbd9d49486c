// What the viewer of a game may do now, read from the snapshot alone (no DOM): the pure
// questions the game page's parts share. Nothing is worked out here: the server sends who
// may start a turn, and with what (`legal`).

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('./model.js').StartResult} StartResult */

/**
 * What each start the viewer may play now does (the steal and Mweiso's opening included):
 * exactly the server's `legal[you].starts`.
 * @param {Snapshot} snap
 * @returns {StartResult[]}
 */
export function myStartResults(snap) {
  return (snap.you && snap.legal?.[snap.you]?.starts) || [];
}

/**
 * The start tokens the viewer may play now (`E1`, `A1'` for a clockwise start).
 * @param {Snapshot} snap
 * @returns {string[]}
 */
export function myStarts(snap) {
  return myStartResults(snap).map((r) => r.start);
}

/** May the viewer start a turn now? @param {Snapshot} snap */
export function myTurn(snap) {
  return myStartResults(snap).length > 0;
}

/** Does a decision wait for the viewer's answer? @param {Snapshot} snap */
export function myDecision(snap) {
  return Boolean(snap.pending && snap.you && snap.to_move === snap.you && snap.status === 'playing');
}
