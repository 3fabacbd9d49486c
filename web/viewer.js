// What the viewer of a game may do now, read from the snapshot alone (no DOM): the pure
// questions the game page's parts share.

import { parsePosition, legalStarts, other, startToken } from './notation.js';

/** @typedef {import('./game.js').Snapshot} Snapshot */

/**
 * The start tokens the viewer may play now (the steal included).
 * @param {Snapshot} snap
 * @returns {string[]}
 */
export function myStarts(snap) {
  const me = snap.you;
  if (!me || snap.status !== 'playing' || !snap.position || snap.pending || snap.pending_move) return [];
  const pos = parsePosition(snap.ruleset, snap.position);
  if (snap.opening.length) return snap.opening.includes(me) ? legalStarts(pos, me) : [];
  if (snap.to_move === me) return legalStarts(pos, me);
  if (snap.clock.steal_open && snap.to_move === other(me)) {
    const stolen = { ...pos, toMove: me };
    return legalStarts(stolen, me);
  }
  return [];
}

/** May the viewer start a turn now? @param {Snapshot} snap */
export function myTurn(snap) {
  return myStarts(snap).length > 0;
}

/** Does a decision wait for the viewer's answer? @param {Snapshot} snap */
export function myDecision(snap) {
  return Boolean(snap.pending && snap.you && snap.to_move === snap.you && snap.status === 'playing');
}

/**
 * The server's legal moves (in a fresh snapshot) against the starts worked out here: a
 * difference logs a warning.
 * @param {Snapshot} snap
 */
export function checkLegalMoves(snap) {
  if (!snap.legal_moves.length || !snap.position || snap.clock.steal_open) return;
  const side = snap.to_move || snap.you;
  if (!side) return;
  const mine = legalStarts(parsePosition(snap.ruleset, snap.position), side).sort().join(' ');
  const theirs = [...new Set(snap.legal_moves.map(startToken))].sort().join(' ');
  if (mine !== theirs) console.warn(`legal starts differ: here ${mine}; server ${theirs}`);
}
