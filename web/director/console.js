// The director's console on the tournament page: what to do next in plain words, the
// players (connected, withdrawn, joined late) with a way to withdraw them, pairing a round
// (by the server, or by hand, or edited before its start), starting and ending it, the
// round's score sheets with their corrections, and the exports. It reads the shared
// tournament store (tournament/tournamentstore.js) and acts through the HTTP calls of
// docs/protocol.md "Tournaments"; the store's socket brings the effects back.
//
// This module is the console's frame: its layout, redrawing a part at a time, and running
// an action. Each part is a module of its own: status.js (what to do next), players.js,
// round.js (pairing, starting and ending a round, its clock), pairing.js (the pairing
// editor), sheets.js (the score sheets), correction.js (correcting one) and directors.js
// (the co-directors, and who did what). The director and the co-directors see it alike,
// but for naming and removing co-directors, which is the director's own.
//
// The console is redrawn on every change of the store but the boards, one part at a time
// (a presence change redraws only the players). What the director is editing (the pairing
// being changed, a correction being written) lives in the parts, not in the DOM, so a
// redraw keeps it; the focused control is found again by its `data-key` after a redraw.

import { h, replace, announce, errorText, formatRemaining } from '../core/ui.js';
import { StatusLine } from './status.js';
import { PlayersPart } from './players.js';
import { RoundPart } from './round.js';
import { PairingEditor } from './pairing.js';
import { SheetsPart } from './sheets.js';
import { CorrectionForm } from './correction.js';
import { DirectorsPart } from './directors.js';
import { BoardTablesPart } from './boardtables.js';

/** @typedef {import('../tournament/tournamentstore.js').TournamentStore} TournamentStore */
/** @typedef {import('../tournament/tournamentstore.js').ChangeKind} ChangeKind */
/** @typedef {'status'|'players'|'round'|'sheets'|'directors'} Part */

/** Which parts of the console each change of the store redraws. */
const PARTS = /** @type {Record<ChangeKind, Part[]>} */ ({
  state: ['status', 'players', 'round', 'sheets', 'directors'],
  directors: ['directors'],
  player: ['status', 'players', 'round', 'sheets'],
  players: ['players', 'round', 'sheets'],
  presence: ['players'],
  round: ['status', 'players', 'round', 'sheets'],
  sheet: ['status', 'sheets'],
  standings: ['round'],
  status: ['status', 'round', 'sheets'],
  board: [],
  connection: [],
  device_linked: ['players'],
});

/**
 * Mounts the director's console into `container` (the session must be the director's or
 * a co-director's; nothing is shown otherwise). Returns a function that takes it down.
 * @param {HTMLElement} container
 * @param {TournamentStore} store
 * @returns {() => void}
 */
export function mountDirector(container, store) {
  if (!store.isDirector()) return () => {};
  const view = new DirectorConsole(container, store);
  return () => view.stop();
}

export class DirectorConsole {
  /** @param {HTMLElement} container @param {TournamentStore} store */
  constructor(container, store) {
    this.store = store;
    /** @type {Set<string>} actions on their way to the server (their buttons stay disabled) */
    this.busy = new Set();
    this.status = new StatusLine(this);
    this.players = new PlayersPart(this);
    this.round = new RoundPart(this);
    this.pairing = new PairingEditor(this);
    this.sheets = new SheetsPart(this);
    this.correction = new CorrectionForm(this);
    this.directors = new DirectorsPart(this);
    this.boardTables = new BoardTablesPart(this);

    const section = (/** @type {Part} */ part, /** @type {string} */ title) => {
      const body = h('div', { class: 'director-part-body' });
      // Kept across redraws so that a refusal is read once, not again at every redraw.
      const alert = h('div', { class: 'form-error', role: 'alert', 'data-director-error': part });
      const heading = h('h3', { id: `director-${part}-title` }, title);
      // What comes after the refusals (the round's start): below them, so that a refusal
      // of the pairing stands between the pairing and the button that would start it.
      const after = h('div', { class: 'director-part-after' });
      const el = h('section', { class: `director-part director-${part}`, 'aria-labelledby': heading.id }, heading, body, alert, after);
      return { el, body, alert, after, heading };
    };
    this.statusLine = h('p', { class: 'director-status', id: 'director-status', 'data-director-status': true });
    this.parts = {
      players: section('players', 'Players'),
      round: section('round', 'Round'),
      sheets: section('sheets', 'Score sheets'),
      directors: section('directors', 'Directors'),
    };
    this.el = h('section', { id: 'director-console', class: 'card director-console', 'aria-labelledby': 'director-title' },
      h('div', { class: 'director-head' },
        h('h2', { id: 'director-title' }, 'Director\'s console'),
        h('p', { class: 'muted small' }, store.isChiefDirector()
          ? 'Only you and your co-directors see this: you direct this tournament.'
          : 'Only the directors see this: you are a co-director of this tournament.')),
      this.statusLine,
      h('div', { class: 'director-grid' }, this.parts.round.el, this.parts.players.el),
      this.parts.sheets.el,
      this.parts.directors.el,
      this.downloads());
    container.append(this.el);

    this.unsubscribe = store.subscribe((kind, detail) => {
      if (kind === 'device_linked') this.players.linked(detail);
      // The whole state again (a reconnection): an event may have been missed.
      if (kind === 'state') this.players.newDevicesFor = '';
      this.redraw(PARTS[kind] || []);
    });
    this.timer = window.setInterval(() => this.tick(), 500);
    this.redraw(['status', 'players', 'round', 'sheets', 'directors']);
  }

  stop() {
    this.unsubscribe();
    clearInterval(this.timer);
    this.el.remove();
  }

  get snap() {
    return this.store.snapshot;
  }

  now() {
    return this.store.now ? this.store.now() : Date.now();
  }

  /** The last round paired, or null. */
  lastRound() {
    const rounds = this.snap.rounds;
    return rounds.length ? rounds[rounds.length - 1] : null;
  }

  /**
   * Redraws some parts, keeping the focus (and a text field's caret) where it was.
   * @param {Part[]} parts
   */
  redraw(parts) {
    if (!parts.length) return;
    const active = document.activeElement;
    const key = active instanceof HTMLElement && this.el.contains(active) ? active.dataset.key : undefined;
    /** @type {[number | null, number | null] | null} */
    let caret = null;
    if ((active instanceof HTMLInputElement && active.type === 'text') || active instanceof HTMLTextAreaElement) {
      caret = [active.selectionStart, active.selectionEnd];
    }
    this.pairing.sync();
    for (const part of parts) {
      if (part === 'status') replace(this.statusLine, ...this.status.words());
      else if (part === 'players') replace(this.parts.players.body, this.players.draw());
      else if (part === 'round') {
        const { body, after } = this.round.draw();
        replace(this.parts.round.body, body);
        replace(this.parts.round.after, after);
      }
      else if (part === 'sheets') replace(this.parts.sheets.body, this.sheets.draw());
      else if (part === 'directors') replace(this.parts.directors.body, this.directors.draw());
    }
    if (key && !(active && this.el.contains(active))) {
      const again = /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-key="${CSS.escape(key)}"]`));
      if (again && !(/** @type {any} */ (again).disabled)) {
        again.focus({ preventScroll: true });
        if (caret && (again instanceof HTMLInputElement || again instanceof HTMLTextAreaElement)) {
          again.setSelectionRange(caret[0], caret[1]);
        }
      }
    }
    this.tick();
  }

  /** Updates the countdowns in place, every half second. */
  tick() {
    const now = this.now();
    this.players.tick(now);
    for (const el of this.el.querySelectorAll('[data-countdown-to]')) {
      const to = Number(/** @type {HTMLElement} */ (el).dataset.countdownTo);
      const text = formatRemaining(to - now);
      if (el.textContent !== text) el.textContent = text;
    }
  }

  /**
   * A countdown to `ms` (server time), kept current by `tick`.
   * @param {number} ms
   */
  countdown(ms) {
    return h('span', { class: 'countdown', 'data-countdown-to': ms }, formatRemaining(ms - this.now()));
  }

  /**
   * Runs one action: its button disabled meanwhile, its refusal shown in words beside its
   * part of the console, its success said aloud; the snapshot is read again at once.
   * @param {string} key the action (one at a time)
   * @param {Part} part where a refusal is shown
   * @param {() => Promise<any>} call
   * @param {(answer: any) => string} success the words said aloud
   * @param {(e: unknown) => string | (string | Node)[]} [refusal] the words of a refusal
   * @returns {Promise<boolean>} whether it succeeded
   */
  async act(key, part, call, success, refusal) {
    if (this.busy.has(key)) return false;
    this.busy.add(key);
    this.alert(part, '');
    for (const b of this.el.querySelectorAll(`[data-action="${CSS.escape(key)}"]`)) {
      /** @type {HTMLButtonElement} */ (b).disabled = true;
    }
    let ok = false;
    try {
      const answer = await call();
      ok = true;
      announce(success(answer));
    } catch (e) {
      this.alert(part, refusal ? refusal(e) : errorText(e));
    } finally {
      this.busy.delete(key);
    }
    if (ok) await this.store.refresh().catch(() => {});
    this.redraw(['status', 'players', 'round', 'sheets', 'directors']);
    return ok;
  }

  /** @param {Part} part @param {string | (string | Node)[]} content */
  alert(part, content) {
    const el = part === 'status' ? this.parts.round.alert : this.parts[part].alert;
    if (typeof content === 'string') el.textContent = content;
    else replace(el, ...content);
  }

  /**
   * A button bound to an action key: disabled while that action is under way.
   * @param {string} key
   * @param {Record<string, any>} attrs
   * @param {string} text
   */
  button(key, attrs, text) {
    return h('button', { type: 'button', class: 'button secondary small', ...attrs, 'data-action': key, 'data-key': attrs['data-key'] || key, disabled: attrs.disabled || this.busy.has(key) }, text);
  }

  downloads() {
    const base = `/api/tournaments/${this.store.id}`;
    const link = (/** @type {string} */ file, /** @type {string} */ text) =>
      h('li', {}, h('a', { href: `${base}/${file}`, download: file, 'data-export': file }, text));
    return h('section', { class: 'director-part director-downloads', 'aria-labelledby': 'director-downloads-title' },
      h('h3', { id: 'director-downloads-title' }, 'Downloads'),
      h('ul', { class: 'director-exports' },
        link('standings.csv', 'Standings (CSV, for a spreadsheet)'),
        link('sheets.csv', 'Every score sheet with its corrections (CSV)'),
        link('tournament.trf', 'The tournament for FIDE\'s pairing programs (TRF)')));
  }
}
