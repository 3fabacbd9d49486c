// The game page's clocks: the referee count on the player cards and in the prompt, the
// move limit, the abandonment countdown while a steal is open, and the arrangement limit
// of a free setup (docs/rules.md#11-setup). Deadlines are server
// times (`GameSession.serverNow`); the page calls `update` every 100 ms and after drawing.

import { h, formatRemaining } from '../core/ui.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('../board/notation.js').Side} Side */

/** A player card's clock. @param {Side} side */
export function cardClock(side) {
  return h('span', { class: 'card-clock', 'data-clock': side });
}

/** The prompt's line counting the referee's seconds down. */
export function refereeLine() {
  return h('p', { class: 'referee-line', 'data-referee-countdown': true });
}

/** The prompt's line counting the move limit down. */
export function moveLimitLine() {
  return h('p', { class: 'move-limit', 'data-move-deadline': true });
}

/** The steal banner's abandonment countdown. */
export function abandonLine() {
  return h('span', { class: 'abandon-clock small', 'data-abandon': true });
}

export class Clocks {
  /** @param {HTMLElement} root the page, where the clock elements are found @param {() => number} serverNow */
  constructor(root, serverNow) {
    this.root = root;
    this.serverNow = serverNow;
    /** When the steal opened, on the local clock (0: not known, e.g. caught up). */
    this.stealSince = 0;
  }

  /** A steal opened: just now if the event is live. @param {boolean} live */
  stealOpened(live) {
    this.stealSince = live ? Date.now() : 0;
  }

  /** Sets every clock element of the page from `snap`. @param {Snapshot} snap */
  update(snap) {
    const now = this.serverNow();
    const clock = snap.clock;
    const referee = clock.referee_deadline != null && snap.status === 'playing' ? clock.referee_deadline - now : null;
    const r = snap.time_control.referee_seconds;
    const arranging = arrangingSide(snap);
    const arrangeLeft = arranging && clock.arrange_deadline != null ? clock.arrange_deadline - now : null;
    for (const el of this.root.querySelectorAll('[data-clock]')) {
      if (!(el instanceof HTMLElement)) continue;
      const side = el.getAttribute('data-clock');
      if (arrangeLeft != null && arranging === side) {
        const limit = (snap.time_control.arrange_seconds || 0) * 1000;
        el.className = `card-clock running ${arrangeLeft < 15000 ? 'low' : ''}`;
        el.style.setProperty('--frac', String(limit ? Math.max(0, Math.min(1, arrangeLeft / limit)) : 0));
        el.textContent = formatRemaining(Math.max(0, arrangeLeft));
        el.setAttribute('aria-label', `arrangement time: ${formatRemaining(Math.max(0, arrangeLeft))} left`);
      } else if (referee != null && snap.to_move === side && !snap.pending_move) {
        const frac = r ? Math.max(0, Math.min(1, referee / (r * 1000))) : 0;
        el.className = `card-clock running ${referee < 1000 ? 'low' : ''}`;
        // Through the CSSOM, which the page's Content-Security-Policy allows (a style
        // attribute would need 'unsafe-inline').
        el.style.setProperty('--frac', String(frac));
        el.textContent = formatRemaining(referee);
        el.setAttribute('aria-label', `referee count: ${formatRemaining(referee)} left`);
      } else if (clock.steal_open && snap.to_move === side && snap.status === 'playing') {
        el.className = 'card-clock expired';
        el.textContent = 'count ran out';
      } else {
        el.className = 'card-clock';
        el.textContent = '';
      }
    }
    for (const el of this.root.querySelectorAll('[data-referee-countdown]')) {
      if (referee == null) {
        el.textContent = countWaits(snap) ? 'The referee count starts once both players are at the table.' : '';
        el.classList.remove('low');
        continue;
      }
      const mine = snap.to_move === snap.you;
      el.textContent = `${mine ? 'Your' : 'Their'} referee count: ${formatRemaining(referee)}${mine ? ' — start your turn before it runs out, or it may be stolen.' : ''}`;
      el.classList.toggle('low', referee < 1000);
    }
    for (const el of this.root.querySelectorAll('[data-arrange-clock]')) {
      el.textContent = arrangeText(snap, arranging, arrangeLeft);
      el.classList.toggle('low', arrangeLeft != null && arrangeLeft < 15000);
    }
    for (const el of this.root.querySelectorAll('[data-move-deadline]')) {
      el.textContent = clock.move_deadline != null ? `Move limit: ${formatRemaining(clock.move_deadline - now)} left to finish this turn.` : '';
    }
    for (const el of this.root.querySelectorAll('[data-abandon]')) {
      if (!this.stealSince) continue;
      const left = snap.time_control.abandon_seconds * 1000 - (Date.now() - this.stealSince);
      el.textContent = left > 0 ? ` (If nobody moves within ${formatRemaining(left)}, ${snap.seats[snap.to_move || 's']?.name || 'the player'} loses by abandonment.)` : '';
    }
  }
}

/**
 * The turn is open, under a referee count, but its count has not started: the server waits
 * for both players to be at the table (the game's first turn, or after a restart).
 * @param {Snapshot} snap
 */
export function countWaits(snap) {
  const mover = snap.to_move ? snap.seats[snap.to_move] : null;
  return snap.status === 'playing' && snap.time_control.referee_seconds != null && !!mover && !mover.computer
    && snap.clock.referee_deadline == null && !snap.clock.steal_open && !snap.pending_move && !snap.pending
    && snap.opening.length === 0;
}

/**
 * Who arranges now in a free setup: South until they have arranged, then North; null once
 * both have, or before both seats are taken.
 * @param {Snapshot} snap
 * @returns {Side | null}
 */
export function arrangingSide(snap) {
  if (snap.status !== 'setup' || snap.setup !== 'free' || !snap.seats.s || !snap.seats.n) return null;
  if (!snap.arrangements.s) return 's';
  return snap.arrangements.n ? null : 'n';
}

/**
 * The line under the arrangement: the time left to the player arranging, or why it has not
 * started.
 * @param {Snapshot} snap @param {Side | null} arranging @param {number | null} left ms
 */
export function arrangeText(snap, arranging, left) {
  const limit = snap.time_control.arrange_seconds;
  if (!arranging || limit == null) return '';
  const mine = arranging === snap.you;
  const who = snap.seats[arranging]?.name || (arranging === 's' ? 'South' : 'North');
  if (snap.seats[arranging]?.computer) return '';
  if (left == null) {
    return mine ? '' : `${who}'s ${formatRemaining(limit * 1000)} to arrange start when they come to the table.`;
  }
  const shown = formatRemaining(Math.max(0, left));
  return mine
    ? `You have ${shown} left to arrange — when it runs out you are given the outer row (4 seeds in each outer pit).`
    : `${who} has ${shown} left to arrange.`;
}
