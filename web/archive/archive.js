// The archive page `/games`: every finished game, the most recently ended first, searched
// by player and opponent (a name as the sheets show it, a guest's too, or a username),
// ruleset, result, rated or casual, a date range and a tournament (by its name)
// (`GET /api/archive`, docs/protocol.md "The archive (addition)"), a page at a time with
// "Older games". The search is the page's address (`/games?player=kato&ruleset=oware`), so
// a search can be shared and the back button returns to it. Phone first: the fields stack,
// every control is a large target. No session is needed, and none is made.

import { deviceSession } from '../core/session.js';
import { h, replace, announce, errorText } from '../core/ui.js';
import { RULESET_NAMES } from '../core/words.js';
import { searchArchive } from './archiveapi.js';
import { players, resultText, detailsText, endDay } from './gamewords.js';

/** @typedef {import('./archiveapi.js').ArchiveGame} ArchiveGame */

/** The search's fields, in the form's order: the address's names, as the API's. */
const FIELDS = /** @type {const} */ (['player', 'opponent', 'ruleset', 'result', 'rated', 'from', 'to', 'tournament']);

/** Games a page. */
const PAGE = 30;
/** Pages asked for at most to fill one screen when the server's pages come short. */
const FILL_TRIES = 4;

/** @param {HTMLElement} root */
export async function mountArchive(root) {
  document.title = 'Omweso — games played';
  root.classList.add('archive-page');
  linkStyles();
  const page = new ArchivePage(root);
  // The header says who is reading (no session is made to read).
  await Promise.all([deviceSession(), page.search(false)]);
  window.addEventListener('popstate', () => {
    page.readAddress();
    void page.search(false);
  });
}

/** The page's own style sheet, when the server did not preload it. */
function linkStyles() {
  const href = new URL('./archive.css', import.meta.url).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => /** @type {HTMLLinkElement} */ (l).href === href)) return;
  document.head.append(h('link', { rel: 'stylesheet', href }));
}

/** A local day (`2026-11-26`) as ms at its start, in this phone's time zone. @param {string} day */
function dayStart(day) {
  const ms = new Date(`${day}T00:00:00`).getTime();
  return Number.isFinite(ms) ? String(ms) : '';
}

/** The ms at the end of a local day (the start of the next). @param {string} day */
function dayEnd(day) {
  const date = new Date(`${day}T00:00:00`);
  if (!Number.isFinite(date.getTime())) return '';
  date.setDate(date.getDate() + 1);
  return String(date.getTime());
}

class ArchivePage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {string | null} where the next page starts */
    this.next = null;
    /** @type {ArchiveGame[]} */
    this.games = [];
    this.busy = false;
    /** @type {Record<string, HTMLInputElement | HTMLSelectElement>} */
    this.inputs = {
      player: h('input', { type: 'text', id: 'archive-player', name: 'player', autocomplete: 'off', autocapitalize: 'words', spellcheck: 'false', placeholder: 'name or username' }),
      opponent: h('input', { type: 'text', id: 'archive-opponent', name: 'opponent', autocomplete: 'off', autocapitalize: 'words', spellcheck: 'false', placeholder: 'name or username' }),
      ruleset: h('select', { id: 'archive-ruleset', name: 'ruleset' },
        h('option', { value: '' }, 'Any game'),
        ...Object.entries(RULESET_NAMES).map(([value, name]) => h('option', { value }, name))),
      result: h('select', { id: 'archive-result', name: 'result' },
        h('option', { value: '' }, 'Any result'),
        h('option', { value: 'won' }, 'The player won'),
        h('option', { value: 'lost' }, 'The player lost'),
        h('option', { value: 'south' }, 'South won'),
        h('option', { value: 'north' }, 'North won'),
        h('option', { value: 'draw' }, 'Drawn'),
        h('option', { value: 'annulled' }, 'Annulled')),
      rated: h('select', { id: 'archive-rated', name: 'rated' },
        h('option', { value: '' }, 'Rated or casual'),
        h('option', { value: 'true' }, 'Rated'),
        h('option', { value: 'false' }, 'Casual')),
      from: h('input', { type: 'date', id: 'archive-from', name: 'from' }),
      to: h('input', { type: 'date', id: 'archive-to', name: 'to' }),
      tournament: h('input', { type: 'text', id: 'archive-tournament', name: 'tournament', autocomplete: 'off', autocapitalize: 'words', spellcheck: 'false', placeholder: 'its name' }),
    };
    this.error = h('p', { class: 'form-error', role: 'alert', 'data-archive-error': true });
    this.list = h('ol', { class: 'archive-list', 'data-archive-list': true, 'aria-live': 'polite' });
    this.status = h('p', { class: 'muted archive-status', 'data-archive-status': true });
    this.more = h('button', { type: 'button', class: 'button secondary big archive-more', 'data-archive-more': true, hidden: true, onclick: () => this.loadMore() }, 'Older games');
    const label = (/** @type {string} */ field, /** @type {string} */ text) => h('div', { class: 'field' },
      h('label', { for: `archive-${field}` }, text), this.inputs[field]);
    const form = h('form', { class: 'card archive-form', 'data-archive-form': true, role: 'search', onsubmit: (/** @type {Event} */ ev) => {
      ev.preventDefault();
      this.writeAddress();
      void this.search(true);
    } },
    h('div', { class: 'archive-fields' },
      label('player', 'Player'),
      label('opponent', 'Against'),
      label('ruleset', 'Game'),
      label('result', 'Result'),
      label('rated', 'Rated'),
      label('from', 'Ended from'),
      label('to', 'to (inclusive)'),
      label('tournament', 'Tournament')),
    this.error,
    h('div', { class: 'button-row' },
      h('button', { type: 'submit', class: 'button primary big', 'data-archive-search': true }, 'Search'),
      h('a', { class: 'button secondary big', href: '/games', 'data-archive-clear': true, onclick: (/** @type {Event} */ ev) => {
        ev.preventDefault();
        for (const input of Object.values(this.inputs)) input.value = '';
        this.writeAddress();
        void this.search(true);
      } }, 'Clear')));
    replace(root,
      h('header', { class: 'archive-head' },
        h('h1', {}, 'Games played'),
        h('p', { class: 'muted' }, 'Every finished game on this server, the most recent first. Open one to replay it, analyse it or download it.'),
        h('p', { class: 'muted small' }, 'Find a player by the name the score sheets show, or by their username; a tournament by its name.')),
      form,
      h('section', { class: 'archive-results', 'aria-labelledby': 'archive-results-title' },
        h('h2', { id: 'archive-results-title', class: 'sr-only' }, 'Results'),
        this.status, this.list, this.more));
    this.readAddress();
  }

  /** The form's fields from the page's address. */
  readAddress() {
    const params = new URLSearchParams(location.search);
    for (const field of FIELDS) this.inputs[field].value = params.get(field) || '';
  }

  /** The page's address from the form (a new history entry: back returns to the last search). */
  writeAddress() {
    const params = new URLSearchParams();
    for (const field of FIELDS) {
      const value = this.inputs[field].value.trim();
      if (value) params.set(field, value);
    }
    const text = params.toString();
    history.pushState(null, '', `/games${text ? `?${text}` : ''}`);
  }

  /** The API's query for the form's search (days become the ms they start and end at). */
  query() {
    /** @type {Record<string, string>} */
    const query = { limit: String(PAGE) };
    for (const field of FIELDS) {
      const value = this.inputs[field].value.trim();
      if (!value) continue;
      if (field === 'from') query.from = dayStart(value);
      else if (field === 'to') query.to = dayEnd(value);
      else query[field] = value;
    }
    return query;
  }

  /** Runs the search from its first page. @param {boolean} say announce the count */
  async search(say) {
    this.games = [];
    this.next = null;
    replace(this.list);
    this.error.textContent = '';
    await this.fetchPages(null, say);
  }

  async loadMore() {
    if (this.next) await this.fetchPages(this.next, true);
  }

  /**
   * Pages from `after` until one screen's worth is shown or nothing follows: a page may be
   * short when the search filters on what the server reads a window at a time.
   * @param {string | null} after @param {boolean} say
   */
  async fetchPages(after, say) {
    if (this.busy) return;
    this.busy = true;
    this.more.disabled = true;
    this.status.textContent = 'Searching…';
    const before = this.games.length;
    let cursor = after;
    try {
      for (let tries = 0; tries < FILL_TRIES; tries++) {
        const page = await searchArchive({ ...this.query(), ...(cursor ? { after: cursor } : {}) });
        this.games.push(...page.games);
        this.list.append(...page.games.map((game) => gameItem(game)));
        cursor = page.next;
        if (!cursor || this.games.length - before >= PAGE) break;
      }
      this.next = cursor;
      const found = this.games.length - before;
      this.status.textContent = this.games.length
        ? `${this.games.length} ${this.games.length === 1 ? 'game' : 'games'} shown${this.next ? '; older ones follow' : ''}.`
        : this.next ? 'None found yet: older games may match.' : 'No finished game matches this search.';
      if (say) announce(found ? `${found} more ${found === 1 ? 'game' : 'games'} found.` : this.status.textContent);
    } catch (e) {
      this.next = cursor;
      this.status.textContent = '';
      this.error.textContent = errorText(e);
    } finally {
      this.busy = false;
      this.more.hidden = !this.next;
      this.more.disabled = false;
    }
  }
}

/** One game of the list: a link to its page. @param {ArchiveGame} game */
function gameItem(game) {
  return h('li', { class: 'archive-game', 'data-archive-game': game.id, 'data-result': game.result },
    h('a', { class: 'archive-game-link', href: `/g/${encodeURIComponent(game.id)}` },
      h('span', { class: 'archive-players' }, players(game)),
      h('span', { class: 'archive-result' }, resultText(game)),
      h('span', { class: 'muted small archive-details' }, `${detailsText(game)} · ${endDay(game)}`,
        game.tournament ? ` · ${game.tournament_name || 'a tournament'}` : '')));
}
