// One live table of a tournament, small: the real board as a table of seed counts (a
// screen reader reads it as a table of positions, row by row), the two players with their
// points, whose turn it is, the clocks, the last move's pit marked, and the result once
// the game is over. Built once per game; each `board` changes only the counts that moved,
// so fifty tables updating several times a second stay cheap.

import { dims, cellAt, cellOf, parsePosition, pitName, isOware, describeOutcome } from '../board/notation.js';
import { VICTORY_NAMES } from '../core/words.js';
import { h, formatRemaining } from '../core/ui.js';

/** @typedef {import('./tournamentstore.js').BoardView} BoardView */
/** @typedef {import('./tournamentstore.js').PairingView} PairingView */
/** @typedef {import('../board/notation.js').Side} Side */

/** The pit a move starts from: the first coordinate of its notation (`E1`, `E1a`...). @param {string | null} move */
export function startPit(move) {
  const m = move ? /^([A-H][1-4])/i.exec(move.trim()) : null;
  return m ? m[1].toUpperCase() : null;
}

export class MiniBoard {
  /**
   * @param {{ruleset: import('../board/notation.js').Ruleset, pairing: PairingView, round: number,
   *   names: {first: string, second: string}, href: string | null}} table
   */
  constructor(table) {
    this.ruleset = table.ruleset;
    this.pairing = table.pairing;
    const { rows, cols } = dims(this.ruleset);
    /** @type {HTMLTableCellElement[]} cells by the board's cell number */
    this.cells = [];
    /** @type {number[]} the counts shown, to touch only the pits that changed */
    this.shown = new Array(rows * cols).fill(-1);
    this.lastCell = -1;
    /** @type {BoardView | null} */
    this.board = null;
    this.version = -1;
    const bodyRows = [];
    for (let row = rows; row >= 1; row--) {
      const tds = [];
      for (let col = 0; col < cols; col++) {
        const cell = cellAt(this.ruleset, row, col);
        const td = h('td', { 'data-cell': pitName(this.ruleset, cell) });
        this.cells[cell] = td;
        tds.push(td);
      }
      // Row headers give each count its coordinate when read cell by cell.
      bodyRows.push(h('tr', { class: row <= rows / 2 ? 'south-row' : 'north-row' },
        h('th', { scope: 'row', class: 'axis' }, `Row ${row}`), tds));
    }
    // The coordinates are there for screen readers; they take no room on the board.
    const headRow = h('tr', { class: 'axis-row' }, h('td', { class: 'axis' }),
      Array.from({ length: cols }, (_, col) => h('th', { scope: 'col', class: 'axis' }, 'ABCDEFGH'[col])));
    this.caption = h('caption', { class: 'sr-only' });
    // Fixed column widths: the pits share the width, the coordinates take none.
    const columns = h('colgroup', {}, h('col', { class: 'axis-col' }),
      Array.from({ length: cols }, () => h('col', { class: `pit-col of-${cols}` })));
    this.grid = h('table', { class: `mini-grid ${isOware(this.ruleset) ? 'oware' : 'four-row'}` },
      this.caption, columns, h('thead', {}, headRow), h('tbody', {}, bodyRows));
    this.north = h('div', { class: 'mini-player north' });
    this.south = h('div', { class: 'mini-player south' });
    this.status = h('div', { class: 'mini-status small', 'data-mini-status': true });
    /**
     * The result as the score sheet has it, once there is one: it wins over the game's own
     * end, since the director may have corrected it.
     * @type {string | null}
     */
    this.sheetResult = null;
    this.clock = h('span', { class: 'mini-clock' });
    const label = `Table ${table.pairing.table}`;
    this.link = table.href
      ? h('a', { href: table.href, class: 'mini-title', 'data-open-table': table.pairing.table }, label)
      : h('span', { class: 'mini-title' }, label);
    this.pin = h('button', {
      type: 'button', class: 'pin-button', 'data-pin': table.pairing.table, 'aria-pressed': 'false',
      'aria-label': `Pin table ${table.pairing.table}`, title: 'Pin this table to the top',
    }, 'Pin');
    this.el = h('article', {
      class: 'mini', 'data-mini': true, 'data-table': table.pairing.table, 'data-round': table.round,
      'data-game-id': table.pairing.game_id || '', 'data-version': -1, 'data-status': 'waiting',
      'aria-label': label,
    },
    h('header', { class: 'mini-head' }, this.link, this.clock, this.pin),
    this.north, this.grid, this.south, this.status);
    if (table.href) {
      // The whole card opens the game; the title link is the keyboard's way in.
      this.el.addEventListener('click', (ev) => {
        const target = /** @type {HTMLElement} */ (ev.target);
        if (target.closest('a, button')) return;
        location.assign(/** @type {string} */ (table.href));
      });
    }
    this.setNames(table.names, { first: null, second: null });
  }

  /**
   * The players as seated, with their points in the tournament: `first` is South (moves
   * first in this game), `second` North.
   * @param {{first: string, second: string}} names
   * @param {{first: number | null, second: number | null}} points
   */
  setNames(names, points) {
    this.names = names;
    const label = (/** @type {string} */ name, /** @type {number | null} */ pts) => (pts == null ? name : `${name} (${pts})`);
    const north = label(names.second, points.second);
    const south = label(names.first, points.first);
    if (this.north.textContent !== north) this.north.textContent = north;
    if (this.south.textContent !== south) this.south.textContent = south;
    this.caption.textContent = `Table ${this.pairing.table}: ${names.first} (South, moves first) against ${names.second} (North)`;
  }

  /** @param {BoardView} board */
  update(board) {
    if (board.version < this.version) return;
    this.board = board;
    this.version = board.version;
    this.el.dataset.version = String(board.version);
    this.el.dataset.status = board.status;
    this.el.dataset.position = board.position || '';
    this.el.dataset.lastMove = board.last_move || '';
    if (board.position) {
      let pos = null;
      try {
        pos = parsePosition(this.ruleset, board.position);
      } catch {
        pos = null;
      }
      if (pos) {
        pos.cells.forEach((count, cell) => {
          if (this.shown[cell] !== count) {
            this.shown[cell] = count;
            this.cells[cell].textContent = String(count);
            this.cells[cell].classList.toggle('empty', count === 0);
          }
        });
      }
    }
    const last = startPit(board.last_move);
    const lastCell = last ? cellOf(this.ruleset, last) : -1;
    if (lastCell !== this.lastCell) {
      if (this.lastCell >= 0) {
        this.cells[this.lastCell].classList.remove('last');
        this.cells[this.lastCell].removeAttribute('aria-description');
      }
      if (lastCell >= 0) {
        this.cells[lastCell].classList.add('last');
        this.cells[lastCell].setAttribute('aria-description', 'last move started here');
      }
      this.lastCell = lastCell;
    }
    const toMove = board.outcome ? null : board.to_move;
    this.south.classList.toggle('to-move', toMove === 's');
    this.north.classList.toggle('to-move', toMove === 'n');
    this.el.classList.toggle('finished', Boolean(board.outcome));
    const words = this.describe(board);
    if (this.status.textContent !== words) this.status.textContent = words;
  }

  /** @param {BoardView} board */
  describe(board) {
    const names = /** @type {{first: string, second: string}} */ (this.names);
    const seat = (/** @type {Side} */ side) => (side === 's' ? names.first : names.second);
    if (this.sheetResult) return this.sheetResult;
    if (board.outcome) {
      const title = describeOutcome(board.outcome, seat, this.ruleset).title;
      return board.outcome.result === 'win' ? `${title} · ${VICTORY_NAMES[board.outcome.victory] || board.outcome.victory}` : title;
    }
    // Tournament games are seated at once: one not started is arranging its free setup.
    if (board.status === 'setup') return 'Arranging the seeds';
    const last = board.last_move ? `last: ${board.last_move}` : 'no move yet';
    return board.to_move ? `${seat(board.to_move)} to move · ${last}` : last;
  }

  /**
   * The countdown of the side to move: the referee's count, else the move limit.
   * @param {number} now the server's clock
   */
  tick(now) {
    const board = this.board;
    let text = '';
    if (board && !board.outcome) {
      const deadline = board.clock.referee_deadline ?? board.clock.move_deadline;
      if (deadline != null) text = formatRemaining(deadline - now);
      if (board.clock.steal_open) text = 'steal!';
    }
    if (this.clock.textContent !== text) this.clock.textContent = text;
  }

  /**
   * A finished game's result as its score sheet has it, corrections included: shown
   * instead of the game's own end (a corrected result must be the one shown).
   * @param {string} text
   */
  showResult(text) {
    this.sheetResult = text;
    if (this.status.textContent !== text) this.status.textContent = text;
    this.el.classList.add('finished');
  }

  /** @param {boolean} pinned */
  setPinned(pinned) {
    if (this.el.classList.contains('pinned') === pinned && this.pin.getAttribute('aria-pressed') === String(pinned)) return;
    this.pin.setAttribute('aria-pressed', String(pinned));
    this.el.classList.toggle('pinned', pinned);
  }
}
