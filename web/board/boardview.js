// The board area of the game page: the board (built once the ruleset is known) and what
// it shows - a past position under review, the setup, a decision option's preview, or the
// game with the last move marked, the seeds in hand and the pits the viewer may play -
// with the preview badge, the skip button, and the settings: the animation speed, and the
// side the board is seen from.

import { Board } from './board.js';
import { parsePosition, cellOf, other, sideName } from './notation.js';
import { h, replace, animationSpeed, saveAnimationSpeed, SPEEDS } from '../core/ui.js';

/** @typedef {import('../game/model.js').Snapshot} Snapshot */
/** @typedef {import('./notation.js').Side} Side */
/** @typedef {import('./notation.js').Lap} Lap */
/** @typedef {import('./notation.js').Position} Position */
/** @typedef {import('../core/ui.js').Speed} Speed */
/**
 * What to draw besides the snapshot.
 * @typedef {{reviewed: import('../game/model.js').HistoryEntry | null, setup: Position | null,
 *   editable: number[], picked?: number | null, preview: {option: string, position: string} | null, lastLaps: Lap[],
 *   legal: string[]}} Scene
 *   `setup`: the board before the start; `legal`: the tokens to offer (starts, or pits that
 *   answer a decision)
 */

export class BoardView {
  /**
   * @param {{onActivate: (token: string) => void, onAdjust: (cell: number, delta: number) => void,
   *   onMoveSeed: (from: number, to: number) => void, attach: (svg: SVGSVGElement) => void,
   *   flip: () => void}} handlers `attach`: a board was built (to listen to it); `flip`: the
   *   side seen from changed
   */
  constructor(handlers) {
    this.handlers = handlers;
    /** @type {Board | null} */
    this.board = null;
    this.wrap = h('div', { class: 'board-wrap' }, h('div', { class: 'board-loading muted' }, 'Connecting…'));
    this.badge = h('div', { class: 'preview-badge', hidden: true, 'aria-hidden': 'true' });
    this.skipButton = h('button', {
      type: 'button', class: 'button secondary small skip', 'data-skip': true, hidden: true,
      onclick: () => this.board?.skip(),
    }, 'Skip animation ▸▸');
    /** @type {Speed} */
    this.speed = animationSpeed();
    this.speedSelect = h('select', {
      id: 'anim-speed', 'data-speed': true,
      onchange: (/** @type {Event} */ ev) => {
        const value = /** @type {HTMLSelectElement} */ (ev.currentTarget).value;
        this.speed = /** @type {Speed} */ (value in SPEEDS ? value : 'normal');
        saveAnimationSpeed(this.speed);
      },
    }, Object.keys(SPEEDS).map((k) => h('option', { value: k, selected: k === this.speed }, k[0].toUpperCase() + k.slice(1))));
    /** @type {Side | null} the side at the bottom, chosen by a watcher */
    this.viewChoice = null;
    /** @type {Side} */
    this.bottom = 's';
    this.flipButton = h('button', {
      type: 'button', class: 'button secondary small', 'data-flip': true,
      onclick: () => {
        this.viewChoice = other(this.bottom);
        this.handlers.flip();
      },
    }, 'Turn the board');
  }

  /** The side at the bottom of the board. @param {Snapshot} snap @returns {Side} */
  viewSide(snap) {
    this.bottom = this.viewChoice || snap.you || 's';
    this.flipButton.textContent = `View from ${sideName(other(this.bottom))}`;
    return this.bottom;
  }

  /** The board for `ruleset`, seen from `side`. @param {import('./notation.js').Ruleset} ruleset @param {Side} side */
  ensure(ruleset, side) {
    if (!this.board || this.board.ruleset !== ruleset) {
      const board = new Board(ruleset, this.handlers);
      this.handlers.attach(board.svg);
      board.svg.addEventListener('click', () => {
        if (board.animating) board.skip();
      }, true);
      this.board = board;
      replace(this.wrap, board.svg);
    }
    this.board.setOrientation(side);
    return this.board;
  }

  /** @param {Snapshot} snap @param {Scene} scene */
  draw(snap, scene) {
    const board = this.ensure(snap.ruleset, this.viewSide(snap));
    if (board.animating) return;
    board.clearHand();
    for (const mark of ['last-from', 'last-to', 'gain', 'loss']) board.mark(mark, []);
    board.svg.classList.remove('previewing');
    this.badge.hidden = true;
    const { reviewed, setup, preview } = scene;
    if (reviewed || setup || preview) {
      board.svg.removeAttribute('data-position');
      board.setLegal([]);
      board.setEditable(!reviewed && setup ? scene.editable : []);
    }
    if (reviewed) {
      if (reviewed.position) board.setPosition(parsePosition(snap.ruleset, reviewed.position));
      return;
    }
    board.mark('picked', setup && scene.picked != null ? [scene.picked] : []);
    if (setup || !snap.position) {
      if (setup) board.setPosition(setup);
      return;
    }
    const pos = parsePosition(snap.ruleset, snap.position);
    if (preview) {
      const after = parsePosition(snap.ruleset, preview.position);
      board.setPosition(after);
      board.svg.classList.add('previewing');
      this.badge.hidden = false;
      this.badge.textContent = `Preview: the board after “${preview.option}”`;
      board.mark('gain', after.cells.flatMap((c, i) => (c > pos.cells[i] ? [i] : [])));
      board.mark('loss', after.cells.flatMap((c, i) => (c < pos.cells[i] ? [i] : [])));
      return;
    }
    board.setEditable([]);
    board.setPosition(pos, snap.position);
    const laps = scene.lastLaps;
    const last = laps[laps.length - 1];
    if (last) {
      board.mark('last-from', [cellOf(snap.ruleset, laps[0].from)]);
      board.mark('last-to', [cellOf(snap.ruleset, last.to)]);
      if (snap.pending && last.kind === 'capture') board.showHand(cellOf(snap.ruleset, last.from), last.captured);
    }
    board.setLegal(scene.legal);
  }

  /** A turn is being animated (the skip button shows). @param {boolean} on */
  setAnimating(on) {
    this.skipButton.hidden = !on;
  }

  /** @param {number} cell */
  focusPit(cell) {
    const el = this.board?.pits.get(cell);
    if (el && document.activeElement !== el) el.focus();
  }
}
