// Coordinates, positions and laps (docs/rules.md#0-board-coordinates-notation to #3-oware-abapa), with no DOM: the board's
// geometry, parsing the server's position strings, replaying a turn's laps seed by seed
// for the animation, and the words for a turn and for how a game ended. The words for victories and results are core/words.js's. No rules: what is
// legal, and what a move would do, the server says (docs/protocol.md). Node's test runner
// imports this module directly (tests/notation.test.js).

import { VICTORY_NAMES, VICTORY_WORDS, LOSER_WORDS, ANNUL_WORDS, capitalize } from '../core/words.js';

/** @typedef {'s'|'n'} Side */
/** @typedef {'omweso'|'mweiso'|'oware'} Ruleset */
/**
 * A lap as the server sends it in `played.laps`.
 * @typedef {{from: string, dir: 'a'|'c', seeds: number, to: string,
 *   kind: 'capture'|'relay'|'end', captured: number}} Lap
 */
/**
 * A position: `cells` holds the counts of the board's pits (see `cellOf`), `toMove` the
 * side field of the string (`s`, `n`; Mweiso's opening `o`, `os`, `on`), `captures` the
 * seeds each side captured (Oware; zeros on the 4x8 board).
 * @typedef {{ruleset: Ruleset, cells: number[], toMove: string, captures: [number, number]}} Position
 */
/**
 * One step of a lap, for the animation: lift seeds from a pit into the hand, drop one
 * seed, or capture (seeds leave `cells` for the origin pit, or for a store in Oware).
 * @typedef {{k: 'take', cell: number, n: number}
 *   | {k: 'drop', cell: number}
 *   | {k: 'capture', cells: number[], counts: number[], to: number, store: Side|null}} Step
 */

export const COLUMNS = 'ABCDEFGH';

/** @param {string} ruleset */
export function isOware(ruleset) {
  return ruleset === 'oware';
}

/**
 * Rows and columns of the board.
 * @param {string} ruleset
 * @returns {{rows: number, cols: number}}
 */
export function dims(ruleset) {
  return isOware(ruleset) ? { rows: 2, cols: 6 } : { rows: 4, cols: 8 };
}

/**
 * A cell numbers the board's pits: `(row - 1) * cols + column`, rows from 1 (South's
 * edge), columns from 0 (A, as seen from South).
 * @param {string} ruleset
 * @param {number} row 1-based
 * @param {number} col 0-based
 */
export function cellAt(ruleset, row, col) {
  return (row - 1) * dims(ruleset).cols + col;
}

/** @param {string} ruleset @param {number} cell */
export function rowOf(ruleset, cell) {
  return Math.floor(cell / dims(ruleset).cols) + 1;
}

/** @param {string} ruleset @param {number} cell */
export function colOf(ruleset, cell) {
  return cell % dims(ruleset).cols;
}

/** The pit's coordinate, e.g. `E1`. @param {string} ruleset @param {number} cell */
export function pitName(ruleset, cell) {
  return COLUMNS[colOf(ruleset, cell)] + String(rowOf(ruleset, cell));
}

/**
 * The cell of a coordinate (`E1`; a trailing `'` is ignored), or -1.
 * @param {string} ruleset
 * @param {string} name
 */
export function cellOf(ruleset, name) {
  const m = /^([A-H])([1-4])'?$/.exec(name.trim().toUpperCase());
  if (!m) return -1;
  const { rows, cols } = dims(ruleset);
  const col = COLUMNS.indexOf(m[1]);
  const row = Number(m[2]);
  if (col >= cols || row > rows) return -1;
  return cellAt(ruleset, row, col);
}

/** Who owns a cell. @param {string} ruleset @param {number} cell @returns {Side} */
export function ownerOf(ruleset, cell) {
  const row = rowOf(ruleset, cell);
  return isOware(ruleset) ? (row === 1 ? 's' : 'n') : row <= 2 ? 's' : 'n';
}

/** @param {Side} side @returns {Side} */
export function other(side) {
  return side === 's' ? 'n' : 's';
}

/** @param {Side} side */
export function sideName(side) {
  return side === 's' ? 'South' : 'North';
}

/**
 * The cell of a side's pit by its index in the side's anticlockwise order (docs/rules.md#01-the-4x8-board-omweso-mweiso):
 * South 0..7 = A1..H1, 8..15 = H2..A2; North 0..7 = H4..A4, 8..15 = A3..H3. Oware uses one
 * ring of twelve houses, whatever the side: 0..5 = A1..F1, 6..11 = F2..A2.
 * @param {string} ruleset
 * @param {Side} side
 * @param {number} index
 */
export function cellOfIndex(ruleset, side, index) {
  if (isOware(ruleset)) {
    const i = ((index % 12) + 12) % 12;
    return i < 6 ? cellAt(ruleset, 1, i) : cellAt(ruleset, 2, 11 - i);
  }
  const i = ((index % 16) + 16) % 16;
  if (side === 's') return i < 8 ? cellAt(ruleset, 1, i) : cellAt(ruleset, 2, 15 - i);
  return i < 8 ? cellAt(ruleset, 4, 7 - i) : cellAt(ruleset, 3, i - 8);
}

/**
 * The inverse of `cellOfIndex`: a cell's index in its owner's order (Oware: in the ring).
 * @param {string} ruleset
 * @param {number} cell
 */
export function indexOfCell(ruleset, cell) {
  const row = rowOf(ruleset, cell);
  const col = colOf(ruleset, cell);
  if (isOware(ruleset)) return row === 1 ? col : 11 - col;
  switch (row) {
    case 1: return col;
    case 2: return 15 - col;
    case 4: return 7 - col;
    default: return 8 + col;
  }
}

/**
 * The 16 cells of a side in its anticlockwise order (Oware: the twelve houses).
 * @param {string} ruleset
 * @param {Side} side
 */
export function ring(ruleset, side) {
  const n = isOware(ruleset) ? 12 : 16;
  return Array.from({ length: n }, (_, i) => cellOfIndex(ruleset, side, i));
}

/** The start position of a game whose board is not set yet (all zeros). @param {Ruleset} ruleset */
export function emptyPosition(ruleset) {
  const { rows, cols } = dims(ruleset);
  return { ruleset, cells: new Array(rows * cols).fill(0), toMove: 's', captures: /** @type {[number, number]} */ ([0, 0]) };
}

/**
 * Parses a position string (docs/rules.md#02-position-strings).
 * @param {Ruleset} ruleset
 * @param {string} text
 * @returns {Position}
 */
export function parsePosition(ruleset, text) {
  const parts = text.trim().split(/\s+/);
  const rowsText = (parts[0] || '').split('/');
  const { rows, cols } = dims(ruleset);
  if (rowsText.length !== rows) throw new Error(`not a ${ruleset} position: ${text}`);
  const cells = new Array(rows * cols).fill(0);
  rowsText.forEach((rowText, i) => {
    const counts = rowText.split(',').map(Number);
    if (counts.length !== cols || counts.some((c) => !Number.isInteger(c) || c < 0)) {
      throw new Error(`not a ${ruleset} position: ${text}`);
    }
    const row = rows - i; // the first row written is the top one (row 4, or Oware's row 2)
    counts.forEach((c, col) => { cells[cellAt(ruleset, row, col)] = c; });
  });
  /** @type {[number, number]} */
  const captures = isOware(ruleset) ? [Number(parts[2] || 0), Number(parts[3] || 0)] : [0, 0];
  return { ruleset, cells, toMove: parts[1] || 's', captures };
}

/** @param {Position} pos */
export function formatPosition(pos) {
  const { rows, cols } = dims(pos.ruleset);
  const lines = [];
  for (let row = rows; row >= 1; row--) {
    const counts = [];
    for (let col = 0; col < cols; col++) counts.push(pos.cells[cellAt(pos.ruleset, row, col)]);
    lines.push(counts.join(','));
  }
  const tail = isOware(pos.ruleset) ? ` ${pos.captures[0]} ${pos.captures[1]}` : '';
  return `${lines.join('/')} ${pos.toMove}${tail}`;
}

/** @param {Position} pos @returns {Position} */
export function clonePosition(pos) {
  return { ruleset: pos.ruleset, cells: pos.cells.slice(), toMove: pos.toMove, captures: [pos.captures[0], pos.captures[1]] };
}

/** Do two positions hold the same counts (the side to move aside)? @param {Position} a @param {Position} b */
export function sameBoard(a, b) {
  return a.cells.length === b.cells.length && a.cells.every((c, i) => c === b.cells[i])
    && a.captures[0] === b.captures[0] && a.captures[1] === b.captures[1];
}

/**
 * The steps of one lap, applied to `pos` (which is changed). Every lap takes its `seeds`
 * from its `from` pit: a start or a relay lifts all the pit holds, and captured seeds are
 * put in the lap's origin when captured (where the server shows seeds in hand while a
 * turn waits), so the lap that sows them takes them back from there.
 * @param {Position} pos
 * @param {Lap} lap
 * @returns {Step[]}
 */
export function lapSteps(pos, lap) {
  const ruleset = pos.ruleset;
  const from = cellOf(ruleset, lap.from);
  if (from < 0) throw new Error(`bad lap origin ${lap.from}`);
  const mover = ownerOf(ruleset, from);
  /** @type {Step[]} */
  const steps = [];
  const take = Math.min(lap.seeds, pos.cells[from]);
  pos.cells[from] -= take;
  steps.push({ k: 'take', cell: from, n: lap.seeds });
  const oware = isOware(ruleset);
  const size = oware ? 12 : 16;
  const step = lap.dir === 'c' ? -1 : 1;
  let index = indexOfCell(ruleset, from);
  const origin = index;
  let last = from;
  for (let s = 0; s < lap.seeds; s++) {
    index = (((index + step) % size) + size) % size;
    if (oware && index === origin) index = (index + 1) % size; // Oware skips the origin
    last = cellOfIndex(ruleset, mover, index);
    pos.cells[last] += 1;
    steps.push({ k: 'drop', cell: last });
  }
  if (lap.kind !== 'capture') return steps;
  /** @type {number[]} */
  let taken = [];
  if (oware) {
    // Walk back from the last house over the opponent's houses holding 2 or 3.
    const owner = other(mover);
    let i = indexOfCell(ruleset, last);
    let sum = 0;
    while (sum < lap.captured) {
      const cell = cellOfIndex(ruleset, owner, i);
      if (ownerOf(ruleset, cell) !== owner || (pos.cells[cell] !== 2 && pos.cells[cell] !== 3)) break;
      taken.push(cell);
      sum += pos.cells[cell];
      i = (i + 11) % 12;
    }
  } else {
    const k = indexOfCell(ruleset, last);
    if (k >= 8) {
      const them = other(mover);
      taken = [cellOfIndex(ruleset, them, 23 - k), cellOfIndex(ruleset, them, k - 8)];
    }
  }
  const counts = taken.map((c) => pos.cells[c]);
  taken.forEach((c) => { pos.cells[c] = 0; });
  const total = counts.reduce((a, b) => a + b, 0);
  if (oware) {
    pos.captures[mover === 's' ? 0 : 1] += total;
    steps.push({ k: 'capture', cells: taken, counts, to: -1, store: mover });
  } else {
    pos.cells[from] += total;
    steps.push({ k: 'capture', cells: taken, counts, to: from, store: null });
  }
  return steps;
}

/**
 * Replays laps on a copy of `pos`; returns the board after them.
 * @param {Position} pos
 * @param {Lap[]} laps
 */
export function replay(pos, laps) {
  const after = clonePosition(pos);
  for (const lap of laps) lapSteps(after, lap);
  return after;
}

/**
 * The outcome object of the protocol.
 * @typedef {{result: 'win', winner: Side, victory: string}
 *   | {result: 'draw'}
 *   | {result: 'annulled', reason: string}} Outcome
 */


/**
 * The result in words: a headline and an explanation. A draw is explained by what it was
 * decided on: Oware's captures (24 each at the game's end, or equal when a round's time
 * stopped it), Omweso's and Mweiso's seeds on each side (they draw only on adjudication);
 * with `position`, the counts are said, so a round stopped before anyone captured does
 * not read "captured half the seeds".
 * @param {Outcome} outcome
 * @param {(side: Side) => string} name the player's name for a side
 * @param {string} [ruleset]
 * @param {string | null} [position] the final position, when known
 * @returns {{title: string, detail: string}}
 */
export function describeOutcome(outcome, name, ruleset, position = null) {
  if (outcome.result === 'win') {
    // Said of the players by name: "the opponent resigned" read, on the loser's own page,
    // as if the winner had.
    const loser = name(outcome.winner === 's' ? 'n' : 's');
    let why = LOSER_WORDS[outcome.victory]?.(loser) || VICTORY_WORDS[outcome.victory] || outcome.victory;
    if (outcome.victory === 'no-move' && ruleset === 'oware') why = `${loser} cannot move`;
    if (outcome.victory === 'akakyala') why = `captured twice before ${loser} captured at all`;
    if (outcome.victory === 'adjudicated' && ruleset === 'oware') why = 'the tournament round ended before the game was finished, and it was decided on the seeds captured';
    return { title: `${name(outcome.winner)} wins`, detail: `${capitalize(VICTORY_NAMES[outcome.victory] || outcome.victory)}: ${why}.` };
  }
  if (outcome.result === 'draw') return { title: 'A draw', detail: drawDetail(ruleset, position) };
  return { title: 'The game is annulled', detail: `${capitalize(ANNUL_WORDS[outcome.reason] || outcome.reason)}.` };
}

/**
 * Why a game was drawn. @param {string | undefined} ruleset @param {string | null} position
 */
function drawDetail(ruleset, position) {
  let pos = null;
  try {
    pos = position && ruleset ? parsePosition(/** @type {Ruleset} */ (ruleset), position) : null;
  } catch {
    pos = null;
  }
  if (ruleset === 'oware') {
    if (!pos) return 'Both players captured the same number of seeds.';
    const [s, n] = pos.captures;
    if (s !== n) return 'Both players captured the same number of seeds.';
    if (s === 0) return 'Neither player captured a seed before the round ended: the captures were level, 0 each.';
    return `Each player captured ${s} seed${s === 1 ? '' : 's'}.`;
  }
  if (!pos) return 'The round ended before the game was finished, with the same number of seeds on each side of the board.';
  const south = ring(/** @type {Ruleset} */ (ruleset), 's').reduce((a, cell) => a + pos.cells[cell], 0);
  return `The round ended before the game was finished, with ${south} seeds on each side of the board.`;
}


/**
 * A short account of a turn: seeds sown, laps, captures, and where it ended (the last
 * lap's pit, when that lap ended the turn).
 * @param {{seeds: number, laps: number, captured: number, endsAt: string | null}} turn
 */
export function describeSowing({ seeds, laps, captured, endsAt }) {
  const parts = [`${seeds} seed${seeds === 1 ? '' : 's'} sown in ${laps} lap${laps === 1 ? '' : 's'}`];
  if (captured) parts.push(`captured ${captured}`);
  if (endsAt) parts.push(`ended at ${endsAt}`);
  return parts.join(', ');
}

/**
 * A short account of a turn's laps: seeds sown, laps, captures. Past the server's lap
 * limit only the first laps are sent, and `omitted` counts the rest (the end is unknown).
 * @param {Lap[]} laps
 * @param {{laps: number, seeds: number, captured: number}} [omitted]
 */
export function summarizeLaps(laps, omitted) {
  const last = laps[laps.length - 1];
  return describeSowing({
    seeds: laps.reduce((a, l) => a + l.seeds, 0) + (omitted?.seeds ?? 0),
    laps: laps.length + (omitted?.laps ?? 0),
    captured: laps.reduce((a, l) => a + (l.kind === 'capture' ? l.captured : 0), 0) + (omitted?.captured ?? 0),
    endsAt: last && last.kind === 'end' && !omitted ? last.to : null,
  });
}
