// A finished game's own part of its page (`/g/<id>`, the game's permanent address): the
// result and when and where it was played (its archive entry, `GET /api/archive/{id}`),
// the replay stepped move by move (first, previous, next, last; the arrow keys too) through
// the page's history review, every move in the notation of docs/rules.md#03-move-notation,
// the tournament's sheets when it was a tournament game, "Analyse" on the analysis board,
// and the game file to download (OGN or NDJSON, docs/game-file.md). Hidden while the
// game is being played.

import { readerSession } from '../core/session.js';
import { h, replace, toast, errorText } from '../core/ui.js';
import { stepIcon } from '../core/stepicons.js';
import { archiveEntry } from './archiveapi.js';
import { resultText, detailsText, endDay } from './gamewords.js';

/** @typedef {import('../game/model.js').Snapshot} Snapshot */
/** @typedef {import('./archiveapi.js').ArchiveGame} ArchiveGame */

/**
 * What the panel needs of the game page's history: the move reviewed (`null`: the game as
 * it ended) and a way to review another.
 * @typedef {{review: number | null, setReview: (i: number | null) => void}} Review
 */

export class FinishedPanel {
  /** @param {{gameId: string, history: Review}} options */
  constructor({ gameId, history }) {
    this.gameId = gameId;
    this.history = history;
    /** @type {ArchiveGame | null} */
    this.entry = null;
    this.asked = false;
    /** The last snapshot drawn (the arrow keys step through it). @type {Snapshot | null} */
    this.snap = null;
    this.result = h('p', { class: 'finished-result', 'data-finished-result': true });
    this.details = h('p', { class: 'muted small', 'data-finished-details': true });
    this.where = h('p', { class: 'replay-where', 'data-replay-where': true, 'aria-live': 'polite' });
    const step = (/** @type {string} */ label, /** @type {'first'|'previous'|'next'|'last'} */ key) => h('button', {
      type: 'button', class: 'button secondary', 'aria-label': label, 'data-replay': key, onclick: () => this.step(key),
    }, stepIcon(key));
    this.steps = h('div', { class: 'replay-steps', role: 'group', 'aria-label': 'Replay the game' },
      step('First move', 'first'), step('Previous move', 'previous'),
      step('Next move', 'next'), step('The end of the game', 'last'));
    this.tournament = h('a', { class: 'button secondary', hidden: true, 'data-finished-tournament': true }, 'Tournament sheets');
    this.moves = h('p', { class: 'finished-moves', 'data-finished-moves': true });
    const id = encodeURIComponent(gameId);
    this.el = h('section', { class: 'card finished-panel', hidden: true, 'data-finished-panel': true, 'aria-labelledby': 'finished-title' },
      h('h2', { id: 'finished-title' }, 'The game'),
      this.result, this.details, this.steps, this.where,
      h('div', { class: 'finished-links' },
        h('a', { class: 'button primary', href: `/analysis?game=${id}`, 'data-finished-analyse': true }, 'Analyse'),
        this.tournament,
        this.download('ogn', 'Download (OGN)'),
        this.download('ndjson', 'NDJSON')),
      h('h3', { class: 'sr-only' }, 'Moves'),
      this.moves);
    document.addEventListener('keydown', (ev) => this.onKey(ev));
  }

  /**
   * A link to the game's file in `format`. The exports are read with a session: a visitor
   * without one gets the silent nameless guest first (as a page that reads a tournament
   * does), then the download goes on.
   * @param {string} format @param {string} label
   */
  download(format, label) {
    const link = /** @type {HTMLAnchorElement} */ (h('a', {
      class: 'button secondary', href: `/api/games/${encodeURIComponent(this.gameId)}/export?format=${format}`,
      // The server names the file (its Content-Disposition).
      download: '', 'data-download': format,
    }, label));
    let ready = false;
    link.addEventListener('click', (ev) => {
      if (ready) return;
      ev.preventDefault();
      readerSession().then(() => {
        ready = true;
        link.click();
      }, (e) => toast(errorText(e), 'error'));
    });
    return link;
  }

  /** Draws the panel for `snap` (hidden unless the game is over). @param {Snapshot} snap */
  render(snap) {
    const over = snap.status === 'finished' || snap.status === 'annulled';
    this.el.hidden = !over;
    this.snap = over ? snap : null;
    if (!over) return;
    if (!this.asked) {
      this.asked = true;
      archiveEntry(this.gameId).then((entry) => {
        this.entry = entry;
        if (this.snap) this.render(this.snap);
      }, () => {
        // Not in the archive (yet): the snapshot's own result stands.
      });
    }
    const entry = this.entry;
    this.result.textContent = entry ? resultText(entry) : outcomeText(snap);
    this.details.textContent = entry ? `${detailsText(entry)} · ended ${endDay(entry)}` : '';
    this.tournament.hidden = !entry?.tournament;
    if (entry?.tournament) {
      this.tournament.setAttribute('href', `/t/${encodeURIComponent(entry.tournament)}`);
      this.tournament.textContent = entry.tournament_name ? `${entry.tournament_name}: sheets` : 'Tournament sheets';
    }
    const count = snap.history.length;
    const at = this.history.review;
    const shown = at === null ? count - 1 : at;
    const entryAt = snap.history[shown];
    this.where.textContent = at === null
      ? `The final position, after ${count} ${count === 1 ? 'move' : 'moves'}.`
      : `After move ${at + 1} of ${count}: ${entryAt?.by === 's' ? 'South' : 'North'} played ${entryAt?.move}.`;
    const [first, previous, next, last] = /** @type {HTMLButtonElement[]} */ ([...this.steps.children]);
    first.disabled = count === 0 || at === 0;
    previous.disabled = count === 0 || shown <= 0;
    next.disabled = at === null;
    last.disabled = at === null;
    const text = snap.history.map((m, i) => `${i + 1}. ${m.by === 's' ? 'S' : 'N'} ${m.move}${m.stolen ? ' (stolen)' : ''}`).join('  ');
    if (this.moves.textContent !== text) replace(this.moves, text || 'No moves were played.');
  }

  /** One step of the replay. @param {string} key */
  step(key) {
    const snap = this.snap;
    if (!snap || !snap.history.length) return;
    const last = snap.history.length - 1;
    const at = this.history.review ?? last;
    /** @type {number | null} */
    let to = at;
    if (key === 'first') to = 0;
    if (key === 'previous') to = Math.max(0, at - 1);
    if (key === 'next') to = at + 1;
    if (key === 'last') to = null;
    // The last move's position is the game as it ended.
    this.history.setReview(to !== null && to >= last ? null : to);
  }

  /** The arrow keys step the replay (not while typing). @param {KeyboardEvent} ev */
  onKey(ev) {
    if (!this.snap || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const target = /** @type {HTMLElement | null} */ (ev.target);
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    const key = { ArrowLeft: 'previous', ArrowRight: 'next', Home: 'first', End: 'last' }[ev.key];
    if (!key) return;
    ev.preventDefault();
    this.step(key);
  }
}

/** The result from the snapshot alone, until the archive's entry comes. @param {Snapshot} snap */
function outcomeText(snap) {
  const outcome = /** @type {any} */ (snap.outcome);
  if (!outcome) return snap.status === 'annulled' ? 'Annulled' : 'Over';
  if (outcome.result === 'win') {
    const winner = outcome.winner === 's' ? snap.seats.s?.name : snap.seats.n?.name;
    return `${winner || (outcome.winner === 's' ? 'South' : 'North')} won`;
  }
  return outcome.result === 'draw' ? 'Draw' : 'Annulled';
}
