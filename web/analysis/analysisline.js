// The analysis board's line, with no DOM: the positions analysed one after the other (the
// position analysed from, then each move played on it), the one shown, going back and
// forward, and a new move replacing what followed. A game opened for analysis gives its
// moves as the first line (gamefile.js). No rules: every position comes from the server
// (a game file's replay, or an analysis call's answer).

import { parsePosition, ring } from '../board/notation.js';

/** @typedef {import('../board/notation.js').Side} Side */
/** @typedef {import('../board/notation.js').Lap} Lap */
/** @typedef {import('../board/notation.js').Outcome} Outcome */
/** @typedef {import('../board/notation.js').Ruleset} Ruleset */
/** @typedef {import('../game/model.js').Legal} Legal */
/** @typedef {import('../game/model.js').OptionResult} OptionResult */
/** @typedef {import('../game/model.js').LapsOmitted} LapsOmitted */
/** Who has captured in an earlier turn (Omweso's akakyala). @typedef {{s: boolean, n: boolean}} CaptureHistory */
/**
 * What the server says of a position (`POST /api/analysis/legal`, a move's `after`).
 * @typedef {{position: string, to_move: Side|null, opening: Side[], legal: Legal,
 *   outcome: Outcome|null, akakyala?: CaptureHistory}} PositionView
 */
/**
 * A move played out (`POST /api/analysis/play`).
 * @typedef {{by: Side, move: string, laps: Lap[], laps_omitted?: LapsOmitted, pending: boolean,
 *   decision: {by: Side, options: string[], results: OptionResult[]} | null, after: PositionView}} PlayAnswer
 */
/**
 * One position of the line: the one analysed from (`move` null), or the one after a move.
 * `view` is the server's answer about it and `laps` the move's laps, each once known;
 * `akakyala` its capture history when the rule is on; `over` the game's result when this
 * is a finished game's last position (a position cannot say it: a win by emitwe-ebiri or
 * a resignation leaves a board where the rules would let the other side move on).
 * @typedef {{move: string|null, by: Side|null, position: string, view: PositionView|null,
 *   laps: Lap[]|null, lapsOmitted: boolean, akakyala: CaptureHistory|null, stolen: boolean,
 *   over?: Outcome|null}} LineNode
 */

/**
 * A node for a position, nothing yet asked about it.
 * @param {string} position @param {CaptureHistory | null} akakyala
 * @returns {LineNode}
 */
export function rootNode(position, akakyala) {
  return { move: null, by: null, position, view: null, laps: null, lapsOmitted: false, akakyala, stolen: false };
}

/**
 * The node a move's answer makes.
 * @param {PlayAnswer} answer
 * @returns {LineNode}
 */
export function nodeOfAnswer(answer) {
  return {
    move: answer.move, by: answer.by, position: answer.after.position, view: answer.after,
    laps: answer.laps, lapsOmitted: Boolean(answer.laps_omitted), akakyala: answer.after.akakyala || null, stolen: false,
  };
}

export class Line {
  /** @param {LineNode[]} nodes the first is the position analysed from @param {number} [cursor] */
  constructor(nodes, cursor = 0) {
    /** @type {LineNode[]} */
    this.nodes = nodes;
    this.cursor = Math.max(0, Math.min(cursor, nodes.length - 1));
  }

  /** The node shown. */
  get current() {
    return this.nodes[this.cursor];
  }

  /** @param {number} i */
  go(i) {
    this.cursor = Math.max(0, Math.min(i, this.nodes.length - 1));
    return this.current;
  }

  get canBack() {
    return this.cursor > 0;
  }

  get canForward() {
    return this.cursor < this.nodes.length - 1;
  }

  /**
   * A move played from the node shown: when it is the move already next in the line the
   * line is kept (and its node learns what the answer says), else it replaces what
   * followed. The new node is shown.
   * @param {LineNode} node
   */
  play(node) {
    const next = this.nodes[this.cursor + 1];
    if (next && next.move === node.move && next.position === node.position) {
      this.nodes[this.cursor + 1] = { ...next, view: node.view || next.view, laps: node.laps || next.laps, lapsOmitted: node.lapsOmitted };
    } else {
      this.nodes = [...this.nodes.slice(0, this.cursor + 1), node];
    }
    this.cursor += 1;
    return this.current;
  }
}

/**
 * Each side's seeds on the board.
 * @param {Ruleset} ruleset @param {string} position
 */
function seedsOf(ruleset, position) {
  const pos = parsePosition(ruleset, position);
  const total = (/** @type {Side} */ side) => ring(ruleset, side).reduce((a, cell) => a + pos.cells[cell], 0);
  return { s: total('s'), n: total('n') };
}

/**
 * Who had captured by each position of a 4x8 game: on the 4x8 board a side's seeds leave
 * its pits only when the opponent captures them, so a turn captured exactly when the other
 * side's count went down (arithmetic on the server's positions, not rules).
 * @param {Ruleset} ruleset @param {string[]} positions the start, then after each move
 * @param {(Side|null)[]} movers who played the move leading to each position (null for the start)
 * @returns {CaptureHistory[]}
 */
export function captureHistories(ruleset, positions, movers) {
  /** @type {CaptureHistory[]} */
  const out = [];
  let history = { s: false, n: false };
  let before = seedsOf(ruleset, positions[0]);
  positions.forEach((position, i) => {
    const now = seedsOf(ruleset, position);
    const by = movers[i];
    if (i > 0 && by) {
      const them = by === 's' ? 'n' : 's';
      if (now[them] < before[them]) history = { ...history, [by]: true };
    }
    out.push(history);
    before = now;
  });
  return out;
}

/**
 * What the server said of a node's position, with the game's end when the node is a
 * finished game's last position: its result, and nobody to move (no legal starts).
 * @param {PositionView} view @param {Outcome | null | undefined} over
 * @returns {PositionView}
 */
export function endedView(view, over) {
  return over ? { ...view, outcome: over, legal: {} } : view;
}
