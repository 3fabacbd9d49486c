// The line under the board: pointing at (or focusing) a legal pit says what that start
// would do ("C1: 9 seeds sown in 2 laps, ended at E2"); while a move is on its way it
// says so.

import { parsePosition, playTurn, describeSowing } from './notation.js';
import { myDecision, myStarts } from './viewer.js';
import { h } from './ui.js';

/** @typedef {import('./game.js').Snapshot} Snapshot */
/** @typedef {import('./notation.js').Outcome} Outcome */
/**
 * What a start does, up to the end of the turn or its first decision.
 * @typedef {{start: string, laps: number, seeds: number, captured: number,
 *   ends_at: string|null, decision: string[]|null, outcome: Outcome|null}} StartResult
 */

/**
 * What the line says about a start.
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

/**
 * What a start of the viewer's does, worked out here by the same turn loop as the
 * engine's (no request: nothing to go stale or be refused).
 * @param {Snapshot} snap @param {string} token
 * @returns {StartResult | null}
 */
function startResult(snap, token) {
  const me = snap.you;
  if (!snap.position || !me) return null;
  const pos = parsePosition(snap.ruleset, snap.position);
  const tc = snap.time_control;
  const budget = tc.move_limit_seconds == null ? 1e9 : Math.floor(tc.move_limit_seconds * tc.sowing_pace);
  const p = playTurn({ ...pos, toMove: pos.toMove.startsWith('o') ? pos.toMove : me }, me, token, budget);
  const last = p.laps[p.laps.length - 1];
  return {
    start: token,
    laps: p.laps.length,
    seeds: p.laps.reduce((a, l) => a + l.seeds, 0),
    captured: p.laps.reduce((a, l) => a + (l.kind === 'capture' ? l.captured : 0), 0),
    ends_at: last && last.kind === 'end' ? last.to : null,
    decision: p.end === 'decision' ? p.options : null,
    outcome: p.outcome,
  };
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
    if (!target.hasAttribute('data-legal') || token === this.token || !myStarts(snap).includes(token)) return;
    this.token = token;
    try {
      const result = startResult(snap, token);
      this.el.textContent = result ? describeStart(result) : '';
    } catch {
      this.el.textContent = '';
    }
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
