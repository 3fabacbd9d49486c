// The board before the game starts, and the free-setup editor: each player arranges 32
// seeds over their 16 pits (South first, North seeing South's), then sends the
// arrangement. On a phone a tap does what the chosen tool says (add a seed, take one,
// or move seeds: tap the pit to take from, then each pit to put one in); with a mouse,
// right-click takes a seed and dragging moves one; the presets are a start to edit from.
// Under an arrangement limit the panel counts the player's time down (clocks.js).

import { emptyPosition, ring, isOware } from '../board/notation.js';
import { h, toast, safeStorage, errorText } from '../core/ui.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('../board/notation.js').Side} Side */
/** @typedef {import('../board/notation.js').Position} Position */

const SIDES = /** @type {Side[]} */ (['s', 'n']);
const OUTER_ROW = [4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0];

/** @param {number[]} counts */
const sum = (counts) => counts.reduce((a, b) => a + b, 0);

/** May the viewer arrange now? @param {Snapshot} snap */
export function canArrange(snap) {
  const me = snap.you;
  return Boolean(me && snap.status === 'setup' && snap.setup === 'free' && snap.seats.s && snap.seats.n
    && !snap.arrangements[me] && (me === 's' || snap.arrangements.s));
}

/**
 * The start position of a preset, to show before the game starts.
 * @param {Snapshot} snap
 * @returns {Position}
 */
function presetPosition(snap) {
  const pos = emptyPosition(snap.ruleset);
  if (isOware(snap.ruleset)) {
    pos.cells.fill(4);
    return pos;
  }
  for (const side of SIDES) {
    ring(snap.ruleset, side).forEach((cell, i) => {
      if (snap.ruleset === 'mweiso') pos.cells[cell] = 2;
      else if (snap.setup === 'even') pos.cells[cell] = 2;
      else if (snap.setup === 'outer') pos.cells[cell] = i < 8 ? 4 : 0;
    });
  }
  return pos;
}

export class SetupEditor {
  /**
   * @param {{send: (pits: number[]) => Promise<void>, render: () => void, focusPit: (cell: number) => void}} host
   */
  constructor(host) {
    this.host = host;
    /** @type {number[] | null} the arrangement being edited */
    this.arrangement = null;
    /** The arrangement is on its way to the server. */
    this.sending = false;
    /** What a tap on a pit does. @type {'add' | 'take' | 'move'} */
    this.tool = 'move';
    /** The pit seeds are moved from, in the `move` tool. @type {number | null} */
    this.picked = null;
  }

  /** The board before the start: the preset, or the arrangements (this one's being edited). @param {Snapshot} snap */
  position(snap) {
    if (snap.setup !== 'free' || isOware(snap.ruleset)) return presetPosition(snap);
    const pos = emptyPosition(snap.ruleset);
    for (const side of SIDES) {
      const counts = side === snap.you && canArrange(snap) ? this.current() : snap.arrangements[side];
      if (!counts) continue;
      ring(snap.ruleset, side).forEach((cell, i) => { pos.cells[cell] = counts[i]; });
    }
    return pos;
  }

  /** The pits the viewer may edit now. @param {Snapshot} snap */
  editable(snap) {
    return snap.you && canArrange(snap) ? ring(snap.ruleset, snap.you) : [];
  }

  /** The arrangement being edited: the last one sent from this browser, or the outer row. */
  current() {
    if (!this.arrangement) {
      const saved = safeStorage('omweso.arrangement');
      const parsed = saved ? saved.split(',').map(Number) : [];
      this.arrangement = parsed.length === 16 && sum(parsed) === 32 ? parsed : OUTER_ROW.slice();
    }
    return this.arrangement;
  }

  /**
   * A tap (1: a click, Enter or +) or a take (-1: right-click, - or Backspace) on a pit.
   * A tap does what the tool says.
   * @param {Snapshot} snap @param {number} cell @param {number} delta
   */
  adjust(snap, cell, delta) {
    if (!snap.you || !canArrange(snap)) return;
    const arr = this.current();
    const i = ring(snap.ruleset, snap.you).indexOf(cell);
    if (i < 0) return;
    const tool = delta < 0 ? 'take' : this.tool;
    if (tool === 'move') {
      this.tapToMove(snap, cell, arr[i]);
      return;
    }
    if (tool === 'add' && sum(arr) >= 32) {
      toast('All 32 seeds are placed: take one out first, or move seeds from pit to pit.');
      return;
    }
    if (tool === 'take' && arr[i] === 0) return;
    arr[i] += tool === 'add' ? 1 : -1;
    if (this.picked === cell && arr[i] === 0) this.picked = null;
    this.host.render();
    this.host.focusPit(cell);
  }

  /**
   * The move tool: the first tap picks the pit to take seeds from, each later tap on
   * another pit moves one seed there, a tap on the picked pit puts it down.
   * @param {Snapshot} snap @param {number} cell @param {number} count the seeds in `cell`
   */
  tapToMove(snap, cell, count) {
    if (this.picked === null || this.picked === cell) {
      this.picked = this.picked === cell || count === 0 ? null : cell;
    } else {
      this.moveSeed(snap, this.picked, cell);
      const from = ring(snap.ruleset, snap.you || 's').indexOf(this.picked);
      if (from < 0 || this.current()[from] === 0) this.picked = null;
    }
    this.host.render();
    this.host.focusPit(cell);
  }

  /** A seed dragged from one pit to another. @param {Snapshot} snap @param {number} from @param {number} to */
  moveSeed(snap, from, to) {
    if (!snap.you || !canArrange(snap)) return;
    const arr = this.current();
    const cells = ring(snap.ruleset, snap.you);
    const a = cells.indexOf(from);
    const b = cells.indexOf(to);
    if (a < 0 || b < 0 || arr[a] === 0) return;
    arr[a] -= 1;
    arr[b] += 1;
    this.host.render();
  }

  /** The editor's panel. @param {Snapshot} snap @param {Side} me */
  panel(snap, me) {
    const total = sum(this.current());
    /** @param {number[]} counts */
    const set = (counts) => {
      this.arrangement = counts;
      this.picked = null;
      this.host.render();
    };
    /** @param {'add' | 'take' | 'move'} tool @param {string} text */
    const toolButton = (tool, text) => h('button', {
      type: 'button', class: 'button secondary', 'data-arrange-tool': tool, 'aria-pressed': String(this.tool === tool),
      onclick: () => { this.tool = tool; this.picked = null; this.host.render(); },
    }, text);
    const help = {
      move: this.picked === null ? 'Tap a pit to take seeds from it, then tap each pit to put one in.' : 'Tap each pit to put a seed in; tap the yellow pit again to stop.',
      add: 'Tap a pit to add a seed.',
      take: 'Tap a pit to take a seed out.',
    }[this.tool];
    const random = () => {
      const counts = new Array(16).fill(0);
      for (let k = 0; k < 32; k++) counts[Math.floor(Math.random() * 16)] += 1;
      set(counts);
    };
    const button = (/** @type {string} */ text, /** @type {() => void} */ onclick) => h('button', { type: 'button', class: 'button secondary', onclick }, text);
    return h('div', { class: 'arrange', 'data-arrange': true },
      h('p', {}, h('strong', {}, 'Arrange your 32 seeds '), `over your 16 pits (rows ${me === 's' ? '1 and 2' : '3 and 4'}).`,
        me === 'n' && snap.arrangements.s ? ' South has arranged theirs: you can see it on the board.' : ''),
      h('p', { class: 'arrange-clock', 'data-arrange-clock': true, 'aria-live': 'off' }),
      h('div', { class: 'arrange-tools', role: 'group', 'aria-label': 'What a tap on a pit does' },
        toolButton('move', 'Move seeds'), toolButton('add', '+ Add'), toolButton('take', '− Take')),
      h('p', { class: 'muted small', 'data-arrange-help': true }, help, ' With a mouse, right-click takes a seed and dragging moves one.'),
      h('p', { class: `arrange-total ${total === 32 ? 'ok' : ''}`, 'data-arrange-total': total, 'aria-live': 'polite' },
        `${total} of 32 seeds placed`, total < 32 ? ` — ${32 - total} left to place` : ''),
      h('div', { class: 'button-row' },
        button('Clear', () => set(new Array(16).fill(0))),
        button('Outer row', () => set(OUTER_ROW.slice())),
        button('Even', () => set(new Array(16).fill(2))),
        button('Random', random),
        h('button', {
          type: 'button', class: 'button primary', 'data-arrange-submit': true, disabled: total !== 32 || this.sending,
          onclick: () => this.submit(),
        }, 'Done: place these seeds')));
  }

  async submit() {
    const arr = this.current().slice();
    this.sending = true;
    this.host.render();
    try {
      await this.host.send(arr);
      safeStorage('omweso.arrangement', arr.join(','));
      this.arrangement = null;
    } catch (e) {
      toast(errorText(e), 'error');
    } finally {
      this.sending = false;
      this.host.render();
    }
  }
}
