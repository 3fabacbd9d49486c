// The line under the board: pointing at (or focusing) a legal pit says what that start
// would do ("C1: 9 seeds sown in 2 laps, ended at E2"), as the server's `legal` says;
// while a move is on its way it says so.

import { describeSowing } from '../board/notation.js';
import { myDecision, myStartResults } from './viewer.js';
import { h } from '../core/ui.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('./model.js').StartResult} StartResult */

/**
 * What the line says about a start: "E1: 14 seeds sown in 3 laps, captured 6, ended at
 * H2", then a choice, a win or an annulment.
 * @param {StartResult} r
 */
export function describeStart(r) {
  let tail = '';
  if (r.decision) tail = `, then a choice (${r.decision.join(', ')})`;
  if (r.outcome?.result === 'win') tail += ` — wins the game (${r.outcome.victory})`;
  if (r.outcome?.result === 'annulled') tail += ' — the turn would not end: the game would be annulled';
  const sowing = describeSowing({ seeds: r.seeds, laps: r.laps, captured: r.captured, endsAt: r.ends_at });
  return `${r.start.replace("'", ' clockwise')}: ${sowing}${tail}.`;
}

export class HoverLine {
  /**
   * @param {{snap: () => Snapshot | null, busy: () => boolean, reviewing: () => boolean}} host
   *   `busy`: a move is on its way (and the line says so)
   */
  constructor(host) {
    this.host = host;
    this.el = h('p', { class: 'hover-line muted small', id: 'hover-preview', 'aria-live': 'off' });
    /** The start described. */
    this.token = '';
  }

  /** Listens to the board. @param {SVGSVGElement} svg */
  attach(svg) {
    svg.addEventListener('pointerover', (ev) => this.show(ev));
    svg.addEventListener('focusin', (ev) => this.show(ev));
    svg.addEventListener('pointerleave', () => this.clear());
  }

  /** @param {Event} ev */
  show(ev) {
    const snap = this.host.snap();
    const target = ev.target instanceof Element ? ev.target.closest('[data-pit]') : null;
    if (!snap || !target || !snap.position || !snap.you || this.host.busy() || this.host.reviewing() || myDecision(snap)) return;
    const token = target.getAttribute('data-pit') || '';
    const result = target.hasAttribute('data-legal') && token !== this.token
      ? myStartResults(snap).find((r) => r.start === token) : undefined;
    if (!result) return;
    this.token = token;
    this.el.textContent = describeStart(result);
  }

  /** The pointer left the board. */
  clear() {
    this.token = '';
    if (!this.host.busy()) this.el.textContent = '';
  }

  /** Says something else (a move on its way), or nothing. @param {string} text */
  say(text) {
    this.token = '';
    this.el.textContent = text;
  }
}
