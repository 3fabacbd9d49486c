// The board as SVG: a wooden board with round pits, seeds drawn as pebbles at fixed
// places in each pit, counts, coordinates, highlights, and the seed-by-seed animation of
// a turn's laps. It knows nothing of the socket: the game view tells it what to show and
// hears back which pit the player chose.
//
// Over 600 lines, and left so: one SVG widget whose drawing, keyboard input and animation
// all work on the same pit geometry and element maps; split apart, each part would reach
// into the others' maps.

import {
  cellAt, colOf, rowOf, dims, isOware, pitName, cellOf, clonePosition, lapSteps, COLUMNS,
} from './notation.js';
import { s, setAttrs, sleep } from '../core/ui.js';

/** @typedef {import('./notation.js').Position} Position */
/** @typedef {import('./notation.js').Lap} Lap */
/** @typedef {import('./notation.js').Side} Side */
/** @typedef {import('./notation.js').Step} Step */

const P = 100; // pit spacing
const R = 40; // pit radius
const SEED_SLOTS = 24; // pebbles drawn at most; the count says the rest
const MARGIN = 48; // room for the coordinates
const GAP = 22; // between the two sides
const STORE_W = 92; // Oware's stores

/**
 * A small deterministic hash: the same pit and seed always get the same jitter.
 * @param {number} a @param {number} b
 */
function hash(a, b) {
  let x = (a * 374761393 + b * 668265263) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 1274126177) >>> 0;
  return ((x ^ (x >>> 16)) >>> 0) / 4294967296;
}

/**
 * The place of seed slot `i` in pit `cell`: a sunflower spiral filled from the middle,
 * each pebble nudged a little so the pits do not all look alike.
 * @param {number} cell @param {number} i
 */
function seedSlot(cell, i) {
  const golden = 2.399963;
  const spin = hash(cell, 99) * Math.PI * 2;
  const radius = (R - 10) * Math.sqrt((i + 0.5) / SEED_SLOTS);
  const angle = i * golden + spin;
  const jx = (hash(cell, i) - 0.5) * 3;
  const jy = (hash(i, cell) - 0.5) * 3;
  return {
    x: radius * Math.cos(angle) + jx,
    y: radius * Math.sin(angle) + jy,
    rot: Math.floor(hash(cell * 7, i) * 180),
    tone: Math.floor(hash(cell + 3, i * 5) * 3),
  };
}

export class Board {
  /**
   * @param {string} ruleset
   * @param {{onActivate?: (token: string) => void, onAdjust?: (cell: number, delta: number) => void,
   *   onMoveSeed?: (from: number, to: number) => void}} [handlers]
   */
  constructor(ruleset, handlers = {}) {
    this.ruleset = ruleset;
    this.handlers = handlers;
    const { rows, cols } = dims(ruleset);
    this.rows = rows;
    this.cols = cols;
    /** @type {Side} */
    this.viewFrom = 's';
    /** @type {Position | null} */
    this.shown = null;
    /** The cells drawn at the moment (changes during an animation). */
    this.counts = new Array(rows * cols).fill(0);
    /** @type {[number, number]} */
    this.stores = [0, 0];
    /** @type {Map<number, SVGGElement>} */
    this.pits = new Map();
    /** @type {Map<string, SVGGElement>} clockwise controls by token (`A1'`) */
    this.cwControls = new Map();
    /** @type {Set<string>} */
    this.legal = new Set();
    this.skipRequested = false;
    this.animating = false;
    /** @type {Set<number>} */
    this.editable = new Set();
    /** @type {number | null} */
    this.dragFrom = null;
    /** A drag just ended: the click that may follow is ignored. */
    this.justDragged = false;
    const oware = isOware(ruleset);
    this.width = cols * P + 2 * MARGIN + (oware ? 2 * STORE_W : 0);
    this.height = rows * P + GAP + 2 * MARGIN;
    this.svg = /** @type {SVGSVGElement} */ (s('svg', {
      class: `board board-${ruleset}`, viewBox: `0 0 ${this.width} ${this.height}`,
      role: 'group', 'aria-label': `${ruleset} board`, 'data-board': ruleset,
      // Focusable from script only: focus comes here when the pit it was on is sown.
      tabindex: -1,
    }));
    this.build();
  }

  /** Which side sits at the bottom. @param {Side} side */
  setOrientation(side) {
    if (side === this.viewFrom) return;
    this.viewFrom = side;
    this.build();
    this.redrawAll();
  }

  /** The screen centre of a cell. @param {number} cell */
  center(cell) {
    const row = rowOf(this.ruleset, cell);
    const col = colOf(this.ruleset, cell);
    const fromSouth = this.viewFrom === 's';
    const t = fromSouth ? this.rows - row : row - 1; // 0 = top row on screen
    const c = fromSouth ? col : this.cols - 1 - col;
    const left = MARGIN + (isOware(this.ruleset) ? STORE_W : 0);
    return {
      x: left + c * P + P / 2,
      y: MARGIN + t * P + P / 2 + (t >= this.rows / 2 ? GAP : 0),
    };
  }

  /** The screen centre of a side's Oware store (on the side's right hand). @param {Side} side */
  storeCenter(side) {
    const right = (side === 's') === (this.viewFrom === 's');
    return { x: right ? this.width - MARGIN / 2 - STORE_W / 2 : MARGIN / 2 + STORE_W / 2, y: this.height / 2 };
  }

  build() {
    const svg = this.svg;
    svg.replaceChildren();
    this.pits.clear();
    this.cwControls.clear();
    const defs = s('defs', {},
      s('linearGradient', { id: 'wood', x1: 0, y1: 0, x2: 1, y2: 0.25 },
        s('stop', { offset: '0', 'stop-color': '#8a5330' }),
        s('stop', { offset: '0.45', 'stop-color': '#a5693d' }),
        s('stop', { offset: '1', 'stop-color': '#7b4627' })),
      s('filter', { id: 'grain', x: 0, y: 0, width: '100%', height: '100%' },
        s('feTurbulence', { type: 'fractalNoise', baseFrequency: '0.004 0.09', numOctaves: 3, seed: 7, result: 'noise' }),
        s('feColorMatrix', { in: 'noise', type: 'matrix', values: '0 0 0 0 0.25  0 0 0 0 0.13  0 0 0 0 0.05  0 0 0 0.55 0', result: 'tint' }),
        s('feComposite', { in: 'tint', in2: 'SourceGraphic', operator: 'in', result: 'grain' }),
        s('feBlend', { in: 'grain', in2: 'SourceGraphic', mode: 'multiply' })),
      s('radialGradient', { id: 'hole', cx: '50%', cy: '42%', r: '60%' },
        s('stop', { offset: '0', 'stop-color': '#3b200f' }),
        s('stop', { offset: '0.75', 'stop-color': '#52301a' }),
        s('stop', { offset: '1', 'stop-color': '#6e4325' })),
      ...['#d8d0c0:#9c9282', '#c9bea8:#857a66', '#e0d7c8:#a89f8f'].map((pair, i) => {
        const [light, dark] = pair.split(':');
        return s('radialGradient', { id: `seed${i}`, cx: '35%', cy: '30%', r: '75%' },
          s('stop', { offset: '0', 'stop-color': '#fbf8f0' }),
          s('stop', { offset: '0.35', 'stop-color': light }),
          s('stop', { offset: '1', 'stop-color': dark }));
      }));
    svg.append(defs);
    const oware = isOware(this.ruleset);
    // The board.
    svg.append(s('rect', {
      class: 'board-wood', x: 6, y: 6, width: this.width - 12, height: this.height - 12, rx: 28,
      fill: 'url(#wood)', filter: 'url(#grain)',
    }));
    svg.append(s('rect', {
      class: 'board-edge', x: 6, y: 6, width: this.width - 12, height: this.height - 12, rx: 28,
    }));
    // The line between the two sides.
    const midY = MARGIN + (this.rows / 2) * P + GAP / 2;
    const left = MARGIN + (oware ? STORE_W : 0);
    svg.append(s('line', { class: 'board-mid', x1: left, x2: left + this.cols * P, y1: midY, y2: midY }));
    // Coordinates.
    const coords = s('g', { class: 'coords', 'aria-hidden': 'true' });
    for (let col = 0; col < this.cols; col++) {
      const { x } = this.center(cellAt(this.ruleset, 1, col));
      coords.append(s('text', { x, y: MARGIN / 2 + 4, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, COLUMNS[col]));
      coords.append(s('text', { x, y: this.height - MARGIN / 2 - 2, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, COLUMNS[col]));
    }
    for (let row = 1; row <= this.rows; row++) {
      const { y } = this.center(cellAt(this.ruleset, row, 0));
      coords.append(s('text', { x: left - 22, y, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, String(row)));
      coords.append(s('text', { x: left + this.cols * P + 22, y, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, String(row)));
    }
    svg.append(coords);
    // Oware's stores.
    if (oware) {
      for (const side of /** @type {Side[]} */ (['s', 'n'])) {
        const c = this.storeCenter(side);
        svg.append(s('g', { class: 'store', 'data-store': side, transform: `translate(${c.x},${c.y})` },
          s('rect', { class: 'store-hole', x: -STORE_W / 2 + 8, y: -P + 6, width: STORE_W - 16, height: 2 * P - 12, rx: 36 }),
          s('g', { class: 'seeds' }),
          s('text', { class: 'store-count', y: P - 26, 'text-anchor': 'middle' }, '0'),
          s('text', { class: 'store-label', y: -P + 26, 'text-anchor': 'middle' }, side === 's' ? 'South' : 'North')));
      }
    }
    // The pits.
    const pitLayer = s('g', { class: 'pits' });
    for (let cell = 0; cell < this.rows * this.cols; cell++) {
      const { x, y } = this.center(cell);
      const name = pitName(this.ruleset, cell);
      const g = /** @type {SVGGElement} */ (s('g', {
        class: 'pit', 'data-pit': name, 'data-cell': cell, transform: `translate(${x},${y})`,
        role: 'button', tabindex: -1, 'aria-disabled': 'true',
      },
      s('circle', { class: 'pit-ring', r: R + 5 }),
      s('circle', { class: 'pit-hole', r: R, fill: 'url(#hole)' }),
      s('g', { class: 'seeds' }),
      s('g', { class: 'count-badge', transform: `translate(${R - 8},${R - 8})` },
        s('circle', { r: 14 }),
        s('text', { class: 'pit-count', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, '0'))));
      g.addEventListener('click', () => {
        if (this.justDragged) {
          // The click that ends a drag is not an "add a seed".
          this.justDragged = false;
          return;
        }
        this.activate(cell);
      });
      g.addEventListener('keydown', (ev) => this.keydown(ev, cell));
      g.addEventListener('contextmenu', (ev) => {
        if (this.editable.has(cell)) {
          ev.preventDefault();
          this.handlers.onAdjust?.(cell, -1);
        }
      });
      g.addEventListener('pointerdown', (ev) => {
        this.justDragged = false;
        if (this.editable.has(cell) && ev.button === 0) this.dragFrom = cell;
      });
      this.pits.set(cell, g);
      pitLayer.append(g);
    }
    svg.append(pitLayer);
    svg.addEventListener('pointerup', (ev) => {
      const from = this.dragFrom;
      this.dragFrom = null;
      if (from === null) return;
      const under = document.elementFromPoint(ev.clientX, ev.clientY)?.closest('[data-cell]');
      const to = under ? Number(under.getAttribute('data-cell')) : -1;
      if (to >= 0 && to !== from && this.editable.has(to)) {
        this.justDragged = true;
        this.handlers.onMoveSeed?.(from, to);
      }
    });
    this.controlLayer = s('g', { class: 'controls' });
    svg.append(this.controlLayer);
    this.fxLayer = s('g', { class: 'fx', 'aria-hidden': 'true' });
    svg.append(this.fxLayer);
  }

  /** @param {number} cell */
  activate(cell) {
    if (this.editable.has(cell)) {
      this.handlers.onAdjust?.(cell, +1);
      return;
    }
    const name = pitName(this.ruleset, cell);
    if (this.legal.has(name)) this.handlers.onActivate?.(name);
  }

  /** @param {KeyboardEvent} ev @param {number} cell */
  keydown(ev, cell) {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      this.activate(cell);
    } else if (this.editable.has(cell) && (ev.key === '+' || ev.key === '=' || ev.key === '-' || ev.key === 'Backspace')) {
      ev.preventDefault();
      this.handlers.onAdjust?.(cell, ev.key === '-' || ev.key === 'Backspace' ? -1 : 1);
    } else if (ev.key.startsWith('Arrow')) {
      ev.preventDefault();
      this.moveFocus(/** @type {Element} */ (ev.currentTarget), ev.key);
    }
  }

  /** Arrow keys move between the focusable pits and controls. @param {Element} from @param {string} key */
  moveFocus(from, key) {
    const targets = [...this.svg.querySelectorAll('[tabindex="0"]')];
    const box = (/** @type {Element} */ el) => el.getBoundingClientRect();
    const a = box(from);
    const ax = a.left + a.width / 2;
    const ay = a.top + a.height / 2;
    let best = null;
    let bestScore = Infinity;
    for (const el of targets) {
      if (el === from) continue;
      const b = box(el);
      const dx = b.left + b.width / 2 - ax;
      const dy = b.top + b.height / 2 - ay;
      const ahead = key === 'ArrowLeft' ? -dx : key === 'ArrowRight' ? dx : key === 'ArrowUp' ? -dy : dy;
      const side = key === 'ArrowLeft' || key === 'ArrowRight' ? Math.abs(dy) : Math.abs(dx);
      if (ahead <= 1) continue;
      const score = ahead + side * 2;
      if (score < bestScore) {
        bestScore = score;
        best = el;
      }
    }
    if (best instanceof SVGElement || best instanceof HTMLElement) best.focus();
  }

  /**
   * Shows `pos` at once (the authoritative position after an event, or a preview).
   * @param {Position} pos
   * @param {string} [text] the position string, kept in `data-position` for tests
   */
  setPosition(pos, text) {
    this.shown = clonePosition(pos);
    this.counts = pos.cells.slice();
    this.stores = [pos.captures[0], pos.captures[1]];
    this.redrawAll();
    if (text !== undefined) this.svg.setAttribute('data-position', text);
  }

  redrawAll() {
    for (let cell = 0; cell < this.counts.length; cell++) this.drawPit(cell);
    if (isOware(this.ruleset)) {
      this.drawStore('s');
      this.drawStore('n');
    }
    this.drawControls();
  }

  /** @param {number} cell */
  drawPit(cell) {
    const g = this.pits.get(cell);
    if (!g) return;
    const n = this.counts[cell];
    const seeds = /** @type {SVGGElement} */ (g.querySelector('.seeds'));
    const have = seeds.childElementCount;
    const want = Math.min(n, SEED_SLOTS);
    for (let i = have; i < want; i++) seeds.append(this.pebble(cell, i));
    for (let i = have; i > want; i--) seeds.lastElementChild?.remove();
    const count = g.querySelector('.pit-count');
    if (count) count.textContent = String(n);
    g.setAttribute('data-count', String(n));
    g.classList.toggle('empty', n === 0);
    this.label(cell);
  }

  /** @param {number} cell @param {number} i */
  pebble(cell, i) {
    const slot = seedSlot(cell, i);
    return s('ellipse', {
      class: 'seed', cx: slot.x.toFixed(1), cy: slot.y.toFixed(1), rx: 7.2, ry: 6.2,
      transform: `rotate(${slot.rot} ${slot.x.toFixed(1)} ${slot.y.toFixed(1)})`, fill: `url(#seed${slot.tone})`,
    });
  }

  /** @param {Side} side */
  drawStore(side) {
    const g = this.svg.querySelector(`[data-store="${side}"]`);
    if (!g) return;
    const n = this.stores[side === 's' ? 0 : 1];
    const seeds = /** @type {SVGGElement} */ (g.querySelector('.seeds'));
    seeds.replaceChildren();
    const shown = Math.min(n, 48);
    for (let i = 0; i < shown; i++) {
      const x = ((i % 4) - 1.5) * 15 + (hash(i, 5) - 0.5) * 4;
      const y = P - 52 - Math.floor(i / 4) * 12 + (hash(5, i) - 0.5) * 4;
      seeds.append(s('ellipse', { class: 'seed', cx: x.toFixed(1), cy: y.toFixed(1), rx: 7, ry: 6, fill: `url(#seed${i % 3})` }));
    }
    const count = g.querySelector('.store-count');
    if (count) count.textContent = String(n);
    g.setAttribute('data-count', String(n));
  }

  /** The accessible name of a pit. @param {number} cell */
  label(cell) {
    const g = this.pits.get(cell);
    if (!g) return;
    const name = pitName(this.ruleset, cell);
    const n = this.counts[cell];
    let text = `${name}: ${n} seed${n === 1 ? '' : 's'}`;
    if (this.legal.has(name)) text += ', legal start; press Enter to sow';
    if (this.editable.has(cell)) text += '; Enter or + adds a seed, - removes one';
    g.setAttribute('aria-label', text);
  }

  /**
   * Marks the legal starts (`E1`; `A1'` gets its clockwise control).
   * @param {Iterable<string>} tokens
   */
  setLegal(tokens) {
    this.legal = new Set();
    /** @type {Set<string>} */
    const clockwise = new Set();
    for (const t of tokens) {
      if (t.endsWith("'")) clockwise.add(t);
      else this.legal.add(t);
    }
    this.clockwise = clockwise;
    for (const [cell, g] of this.pits) {
      const name = pitName(this.ruleset, cell);
      const on = this.legal.has(name);
      g.classList.toggle('legal', on);
      setAttrs(g, { 'data-legal': on, tabindex: on || this.editable.has(cell) ? 0 : -1, 'aria-disabled': on || this.editable.has(cell) ? 'false' : 'true' });
      this.label(cell);
    }
    this.drawControls();
    this.keepFocus();
  }

  /**
   * Focus on a pit that can no longer be played (just sown, or no longer the player's
   * turn) moves to the first pit that can, else to the board itself: not left on a dead
   * pit, nor dropped to the page's start.
   */
  keepFocus() {
    const active = document.activeElement;
    if (!(active instanceof SVGElement) || active === this.svg || !this.svg.contains(active)) return;
    if (active.isConnected && active.getAttribute('tabindex') === '0') return;
    const next = this.svg.querySelector('[tabindex="0"]');
    if (next instanceof SVGElement) next.focus();
    else this.svg.focus();
  }

  drawControls() {
    if (!this.controlLayer) return;
    this.controlLayer.replaceChildren();
    this.cwControls.clear();
    for (const token of this.clockwise || []) {
      const cell = cellOf(this.ruleset, token);
      if (cell < 0) continue;
      const { x, y } = this.center(cell);
      const ox = -R + 2;
      const oy = -R + 2;
      const g = /** @type {SVGGElement} */ (s('g', {
        class: 'cw-control', 'data-pit': token, 'data-legal': true, role: 'button', tabindex: 0,
        'aria-label': `Sow ${token.slice(0, -1)} clockwise (a reverse lap)`, transform: `translate(${x + ox},${y + oy})`,
      },
      s('title', {}, `Sow ${token.slice(0, -1)} clockwise`),
      s('circle', { r: 17 }),
      s('path', { d: 'M -7 -5 A 8.5 8.5 0 1 1 -8.5 3', class: 'cw-arrow' }),
      s('path', { d: 'M -11 -8 L -6.5 -4 L -2 -8.5', class: 'cw-head' })));
      g.addEventListener('click', (ev) => {
        ev.stopPropagation();
        this.handlers.onActivate?.(token);
      });
      g.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          this.handlers.onActivate?.(token);
        } else if (ev.key.startsWith('Arrow')) {
          ev.preventDefault();
          this.moveFocus(g, ev.key);
        }
      });
      this.cwControls.set(token, g);
      this.controlLayer.append(g);
    }
  }

  /**
   * Pits whose counts the arrangement editor changes (clicks add, right-clicks remove,
   * dragging moves a seed).
   * @param {Iterable<number>} cells
   */
  setEditable(cells) {
    this.editable = new Set(cells);
    for (const [cell, g] of this.pits) {
      const on = this.editable.has(cell);
      g.classList.toggle('editable', on);
      if (on) setAttrs(g, { tabindex: 0, 'aria-disabled': 'false' });
      else if (!this.legal.has(pitName(this.ruleset, cell))) setAttrs(g, { tabindex: -1, 'aria-disabled': 'true' });
      this.label(cell);
    }
  }

  /**
   * Extra classes on pits: `last-from`, `last-to`, `gain`, `loss`, `choice`, `origin`...
   * @param {string} cls
   * @param {Iterable<number>} cells
   */
  mark(cls, cells) {
    const set = new Set(cells);
    for (const [cell, g] of this.pits) g.classList.toggle(cls, set.has(cell));
  }

  /** Shows seeds waiting in hand at a pit (a turn waiting for a decision). @param {number} cell @param {number} n */
  showHand(cell, n) {
    this.clearHand();
    if (cell < 0 || n <= 0 || !this.fxLayer) return;
    const { x, y } = this.center(cell);
    this.fxLayer.append(s('g', { class: 'hand waiting', transform: `translate(${x},${y - R - 4})`, 'data-hand': n },
      s('rect', { x: -42, y: -13, width: 84, height: 26, rx: 13 }),
      s('text', { 'text-anchor': 'middle', 'dominant-baseline': 'central' }, `${n} in hand`)));
  }

  clearHand() {
    this.fxLayer?.querySelectorAll('.hand.waiting').forEach((el) => el.remove());
  }

  /** Finish the running animation at once. */
  skip() {
    this.skipRequested = true;
  }

  /**
   * Animates `laps` from `start`, seed by seed; resolves when done (or skipped). The
   * caller then shows the authoritative position.
   * @param {Position} start
   * @param {Lap[]} laps
   * @param {number} msPerSeed
   */
  async animate(start, laps, msPerSeed) {
    const work = clonePosition(start);
    /** @type {Step[][]} */
    const all = [];
    for (const lap of laps) all.push(lapSteps(work, lap));
    const drops = all.flat().filter((st) => st.k === 'drop').length;
    const captures = all.flat().filter((st) => st.k === 'capture').length;
    // Long turns are played faster, so that no turn takes more than about 40 seeds' time.
    const budget = msPerSeed * 40;
    let d = msPerSeed;
    const total = drops * d + captures * Math.max(4 * d, 200);
    if (total > budget && total > 0) d = Math.max(6, Math.floor(d * budget / total));
    const captureMs = Math.max(4 * d, Math.min(220, budget / Math.max(1, captures)));
    this.setPosition(start);
    this.skipRequested = false;
    this.animating = true;
    this.svg.setAttribute('data-animating', '');
    this.svg.removeAttribute('data-position');
    this.svg.style.setProperty('--hop', `${Math.max(30, Math.round(d * 0.8))}ms`);
    const hand = s('g', { class: 'hand moving' }, s('circle', { r: 15 }), s('text', { 'text-anchor': 'middle', 'dominant-baseline': 'central' }, ''));
    this.fxLayer?.append(hand);
    const handText = /** @type {SVGTextElement} */ (hand.querySelector('text'));
    let inHand = 0;
    /** @param {number} cell */
    const moveHand = (cell) => {
      const { x, y } = this.center(cell);
      hand.setAttribute('transform', `translate(${x},${y - 12})`);
    };
    try {
      for (const steps of all) {
        for (const st of steps) {
          if (this.skipRequested) return;
          if (st.k === 'take') {
            const takeN = Math.min(st.n, this.counts[st.cell]);
            this.counts[st.cell] -= takeN;
            inHand = st.n;
            this.drawPit(st.cell);
            moveHand(st.cell);
            handText.textContent = String(inHand);
            this.mark('sowing-from', [st.cell]);
            await sleep(d);
          } else if (st.k === 'drop') {
            moveHand(st.cell);
            await sleep(Math.round(d * 0.6));
            if (this.skipRequested) return;
            this.counts[st.cell] += 1;
            inHand -= 1;
            handText.textContent = inHand > 0 ? String(inHand) : '';
            this.drawPit(st.cell);
            this.flash(st.cell, 'drop');
            await sleep(Math.round(d * 0.4));
          } else {
            await this.animateCapture(st, captureMs);
          }
        }
      }
    } finally {
      hand.remove();
      this.mark('sowing-from', []);
      this.fxLayer?.querySelectorAll('.flying').forEach((el) => el.remove());
      this.animating = false;
      this.svg.removeAttribute('data-animating');
    }
  }

  /** @param {number} cell @param {string} cls */
  flash(cell, cls) {
    const g = this.pits.get(cell);
    if (!g) return;
    g.classList.remove(cls);
    // Restart the CSS animation.
    void g.getBoundingClientRect();
    g.classList.add(cls);
  }

  /**
   * Captured seeds fly from the opponent's pits to the origin (or the store).
   * @param {Extract<Step, {k: 'capture'}>} st
   * @param {number} ms
   */
  async animateCapture(st, ms) {
    const target = st.store ? this.storeCenter(st.store) : this.center(st.to);
    for (const cell of st.cells) this.flash(cell, 'captured');
    /** @type {SVGElement[]} */
    const flying = [];
    st.cells.forEach((cell, k) => {
      const from = this.center(cell);
      const n = Math.min(st.counts[k], 12);
      for (let i = 0; i < n; i++) {
        const slot = seedSlot(cell, i);
        const el = s('ellipse', {
          class: 'seed flying', rx: 7, ry: 6, cx: 0, cy: 0, fill: `url(#seed${slot.tone})`,
        });
        // Through the CSSOM, not a `style` attribute: the page's Content-Security-Policy
        // (`style-src 'self'`) refuses inline style attributes but not the CSSOM.
        el.style.setProperty('transform', `translate(${from.x + slot.x}px, ${from.y + slot.y}px)`);
        el.style.setProperty('transition-duration', `${Math.round(ms * 0.8)}ms`);
        flying.push(el);
        this.fxLayer?.append(el);
      }
    });
    await sleep(Math.min(120, ms / 4));
    // Empty the captured pits as the seeds leave.
    st.cells.forEach((cell) => {
      this.counts[cell] = 0;
      this.drawPit(cell);
    });
    void this.svg.getBoundingClientRect();
    flying.forEach((el, i) => {
      const jx = (hash(i, 3) - 0.5) * 20;
      const jy = (hash(3, i) - 0.5) * 20;
      el.style.setProperty('transform', `translate(${target.x + jx}px, ${target.y + jy}px)`);
    });
    await sleep(ms);
    flying.forEach((el) => el.remove());
    const total = st.counts.reduce((a, b) => a + b, 0);
    if (st.store) {
      this.stores[st.store === 's' ? 0 : 1] += total;
      this.drawStore(st.store);
    } else {
      this.counts[st.to] += total;
      this.drawPit(st.to);
    }
  }
}
