// The analysis board's engine panel: a thinking time, "Ask the engine", and its answer for
// the position shown - the best move (marked on the board), the score as a number and a
// bar, the depth and nodes searched, and the principal line as moves to click (each plays
// the line up to it on the board). The engine runs on the server (`POST
// /api/analysis/search`); nothing is worked out here.

import { sideName, other } from '../board/notation.js';
import { h, replace, announce, errorText } from '../core/ui.js';

/** @typedef {import('../board/notation.js').Side} Side */
/** @typedef {import('./analysisline.js').PositionView} PositionView */
/**
 * The engine's answer (`POST /api/analysis/search`).
 * @typedef {{side: Side, move: string, score: number, depth: number, nodes: number,
 *   pv: {by: Side, move: string, position: string, outcome: import('../board/notation.js').Outcome|null}[]}} SearchAnswer
 */

/** Thinking times offered, in milliseconds (the server allows up to 10 s). */
const TIMES = [500, 1000, 2000, 5000, 10000];

/** @param {number} ms */
const seconds = (ms) => `${ms / 1000} s`;

export class EnginePanel {
  /**
   * @param {{ask: (millis: number, side: Side | null) => Promise<SearchAnswer>,
   *   playLine: (upTo: number) => void, changed: () => void}} host `ask`: the search for the
   *   position shown; `playLine`: play the answer's line up to that move; `changed`: the
   *   answer shown changed (the board marks the best move)
   */
  constructor(host) {
    this.host = host;
    /** @type {{position: string, answer: SearchAnswer} | null} the last answer, for its position */
    this.result = null;
    /** @type {{position: string, text: string} | null} why the engine could not answer */
    this.error = null;
    /** @type {string | null} the position the engine is thinking about */
    this.thinking = null;
    this.millis = h('select', { id: 'engine-millis', 'data-engine-millis': true },
      TIMES.map((ms) => h('option', { value: ms, selected: ms === 1000 }, seconds(ms))));
    this.side = h('select', { id: 'engine-side', 'data-engine-side': true },
      h('option', { value: 's' }, 'South'), h('option', { value: 'n' }, 'North'));
    this.sideRow = h('p', { class: 'engine-side-row', hidden: true },
      h('label', { for: 'engine-side' }, 'Who plays (both owe their opening) '), this.side);
    this.button = h('button', {
      type: 'button', class: 'button primary', 'data-ask-engine': true, onclick: () => this.ask(),
    }, 'Ask the engine');
    this.answer = h('div', { class: 'engine-answer', id: 'engine-answer' });
    /** @type {string} the position shown */
    this.position = '';
    this.el = h('section', { class: 'panel engine-panel', 'aria-labelledby': 'engine-title' },
      h('h2', { id: 'engine-title' }, 'Engine'),
      h('p', { class: 'engine-controls' },
        h('label', { for: 'engine-millis' }, 'Thinking time '), this.millis, ' ', this.button),
      this.sideRow,
      this.answer);
  }

  /** The best move for `position`, if the engine was asked about it. @param {string} position */
  bestFor(position) {
    return this.result && this.result.position === position ? this.result.answer.move : null;
  }

  /**
   * Shows the panel for the position shown.
   * @param {string} position @param {PositionView | null} view @param {boolean} busy a move is being played
   */
  render(position, view, busy) {
    this.position = position;
    const open = Boolean(view && !view.outcome && (view.legal.s || view.legal.n));
    this.sideRow.hidden = !(open && view && view.to_move === null);
    const thinking = this.thinking !== null;
    this.button.disabled = !open || busy || thinking;
    this.button.textContent = thinking ? `Thinking… (${seconds(Number(this.millis.value))})` : 'Ask the engine';
    const result = this.result && this.result.position === position ? this.result.answer : null;
    if (!open) {
      const why = !view ? 'The engine can be asked once the move is over.'
        : view.outcome ? 'The game is over in this position.' : 'Nobody may move here.';
      replace(this.answer, h('p', { class: 'muted small' }, why));
      return;
    }
    if (this.error && this.error.position === position) {
      replace(this.answer, h('p', { class: 'form-error', role: 'alert' }, `The engine could not answer: ${this.error.text}`));
      return;
    }
    if (!result) {
      replace(this.answer, h('p', { class: 'muted small' }, 'Ask the engine for its best move here, its score and the line it expects.'));
      return;
    }
    const forSouth = result.side === 's' ? result.score : -result.score;
    // South's share of the bar (set through the style object: the page's CSP refuses style
    // attributes).
    const southShare = h('div', { class: 'score-bar-south' });
    southShare.style.width = `${Math.round(((forSouth + 1) / 2) * 100)}%`;
    const sign = (/** @type {number} */ x) => (x > 0 ? '+' : x < 0 ? '−' : '±') + Math.abs(x).toFixed(2);
    replace(this.answer,
      h('p', { class: 'engine-best' }, 'Best move: ',
        h('strong', { 'data-engine-move': result.move }, result.move), ` for ${sideName(result.side)}`),
      h('p', { class: 'engine-score' }, 'Score: ',
        h('strong', { 'data-engine-score': result.score }, sign(result.score)), ` for ${sideName(result.side)}`,
        h('span', { class: 'muted small' }, ` (${sign(-result.score)} for ${sideName(other(result.side))}; 1 a win, −1 a loss)`)),
      h('div', { class: 'score-bar', 'aria-hidden': 'true', title: `South ${sign(forSouth)}` }, southShare),
      h('p', { class: 'small muted' },
        'Depth ', h('span', { 'data-engine-depth': result.depth }, String(result.depth)),
        ', ', h('span', { 'data-engine-nodes': result.nodes }, result.nodes.toLocaleString('en')), ' positions'),
      h('h3', { class: 'small' }, 'The line it expects'),
      h('ol', { class: 'pv-list', 'aria-label': 'The engine’s line: select a move to play the line up to it' },
        result.pv.map((step, i) => h('li', {},
          h('button', {
            type: 'button', class: 'history-move', 'data-pv-index': i, disabled: busy,
            title: `${sideName(step.by)} ${step.move}: play the line up to this move`,
            onclick: () => this.host.playLine(i),
          }, h('span', { class: `move-side side-${step.by}` }, step.by === 's' ? 'S' : 'N'),
          h('span', { class: 'move-text' }, step.move))))));
  }

  async ask() {
    const position = this.position;
    if (this.thinking !== null) return;
    this.thinking = position;
    this.error = null;
    this.host.changed();
    try {
      const side = this.sideRow.hidden ? null : /** @type {Side} */ (this.side.value);
      const answer = await this.host.ask(Number(this.millis.value), side);
      this.result = { position, answer };
      announce(`The engine suggests ${answer.move} for ${sideName(answer.side)}, score ${answer.score.toFixed(2)}.`);
    } catch (e) {
      this.result = null;
      this.error = { position, text: errorText(e) };
      announce(`The engine could not answer: ${errorText(e)}`);
    }
    this.thinking = null;
    this.host.changed();
  }
}
