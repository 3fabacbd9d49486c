// Every table of the round, live, on one page: a grid of mini-boards fed by the page's one
// tournament socket. The first pinned table (else the top one still playing) is larger; the rest
// can be filtered to the games still being played, searched by a player's name, pinned to
// the top, and paged forty at a time so that a hall of a hundred tables stays light.

import { MiniBoard } from './miniboard.js';
import { h, replace, safeStorage } from '../core/ui.js';
import { southOf } from './standings.js';
import { RESULT_WORDS, formatPoints } from '../core/words.js';
import { rememberTournamentOf } from './playerpanel.js';

/** @typedef {import('./tournamentstore.js').TournamentStore} TournamentStore */
/** @typedef {import('./tournamentstore.js').RoundView} RoundView */
/** @typedef {import('./tournamentstore.js').PairingView} PairingView */

/** Tables on one page of the grid (beyond it: paging). */
export const TABLES_PER_PAGE = 40;
/** How long to wait for the socket's boards before reading the missing ones over HTTP. */
const FILL_AFTER_MS = 1500;

/**
 * A table's game as seated: South (moves first) and North.
 * @param {PairingView} pairing
 * @returns {[string, string | null]}
 */
function seats(pairing) {
  const south = southOf(pairing);
  return [south, south === pairing.first ? pairing.second : pairing.first];
}

export class TablesView {
  /** @param {TournamentStore} store */
  constructor(store) {
    this.store = store;
    /** @type {Map<number, MiniBoard>} by table number */
    this.minis = new Map();
    /** @type {Map<string, MiniBoard>} by game id */
    this.byGame = new Map();
    /** The round shown, and the games it was built with (a replay changes a table's game). */
    this.builtFor = '';
    this.page = 0;
    this.query = '';
    this.playingOnly = false;
    const saved = safeStorage(`omweso.pins.${store.id}`);
    /** @type {Set<number>} */
    this.pins = new Set((saved || '').split(',').filter(Boolean).map(Number));

    this.title = h('h2', { id: 'tables-title' }, 'Tables');
    this.summary = h('p', { class: 'muted small', id: 'tables-summary', 'aria-live': 'polite' });
    this.search = h('input', {
      id: 'table-search', type: 'search', placeholder: 'A player’s name', autocomplete: 'off',
      oninput: () => { this.query = this.search.value.trim().toLowerCase(); this.page = 0; this.layout(); },
    });
    this.filter = h('input', {
      id: 'filter-playing', type: 'checkbox',
      onchange: () => { this.playingOnly = this.filter.checked; this.page = 0; this.layout(); },
    });
    this.prev = h('button', { type: 'button', class: 'button secondary small', 'data-page-prev': true, onclick: () => { this.page -= 1; this.layout(); } }, '← Previous tables');
    this.next = h('button', { type: 'button', class: 'button secondary small', 'data-page-next': true, onclick: () => { this.page += 1; this.layout(); } }, 'Next tables →');
    this.pageInfo = h('span', { class: 'small muted', 'aria-live': 'polite' });
    this.grid = h('div', { class: 'mini-grid-list', role: 'list', 'aria-labelledby': 'tables-title' });
    this.pager = h('div', { class: 'pager' }, this.prev, this.pageInfo, this.next);
    this.el = h('section', { id: 'tables', class: 'tables-section', 'aria-labelledby': 'tables-title' },
      h('div', { class: 'section-head' }, this.title, this.summary),
      h('div', { class: 'table-controls' },
        h('div', { class: 'field inline' }, h('label', { for: 'table-search' }, 'Find a player'), this.search),
        h('div', { class: 'field inline check' }, this.filter, h('label', { for: 'filter-playing' }, 'Playing only'))),
      this.grid, this.pager);
    this.el.addEventListener('click', (ev) => {
      const pin = /** @type {HTMLElement} */ (ev.target).closest('[data-pin]');
      if (!pin) return;
      const table = Number(pin.getAttribute('data-pin'));
      if (this.pins.has(table)) this.pins.delete(table);
      else this.pins.add(table);
      safeStorage(`omweso.pins.${store.id}`, [...this.pins].join(','));
      this.layout();
      // Pinning moves the table: the focus goes with its button.
      /** @type {HTMLElement | null} */ (this.grid.querySelector(`[data-pin="${table}"]`))?.focus();
    });
    /** @type {number | undefined} a rebuild is due (events come in bursts as games end) */
    this.rebuildTimer = undefined;
    store.subscribe((kind, detail) => {
      if (kind === 'board') this.onBoard(detail);
      else if (kind === 'round' || kind === 'state' || kind === 'sheet' || kind === 'standings' || kind === 'player' || kind === 'players') {
        if (this.rebuildTimer !== undefined) return;
        this.rebuildTimer = window.setTimeout(() => {
          this.rebuildTimer = undefined;
          this.rebuild();
        }, 150);
      }
    });
    this.rebuild();
  }

  /** The round whose tables are shown: the last one paired. */
  round() {
    return this.store.currentRound();
  }

  /** Builds the mini-boards when the round or its games changed; else updates results. */
  rebuild() {
    const round = this.round();
    // A table moved to the board, or relayed from now on, is built again (its game link),
    // as is one whose players the director changed before the start (no game yet).
    const key = round ? `${round.number}:${round.pairings.map((p) => `${p.table}=${p.first}/${p.second}/${p.game_id}${p.played_at === 'board' ? `@board${p.board?.relayed ? '+relay' : ''}` : ''}`).join(',')}` : '';
    if (key !== this.builtFor) {
      this.builtFor = key;
      this.minis.clear();
      this.byGame.clear();
      if (round) {
        const ruleset = this.store.snapshot.ruleset;
        for (const pairing of round.pairings) {
          if (!pairing.second) continue; // the bye is listed under the grid
          const [south, north] = seats(pairing);
          // A board table has a game on the site only when a relay follows it.
          const onSite = Boolean(pairing.game_id) && (pairing.played_at !== 'board' || Boolean(pairing.board?.relayed));
          const mini = new MiniBoard({
            ruleset, pairing, round: round.number,
            names: { first: this.store.name(south), second: this.store.name(north) },
            href: onSite ? `/g/${pairing.game_id}${location.search}` : this.sheetLink(round, pairing),
          });
          if (pairing.played_at === 'board') {
            mini.el.dataset.playedAt = 'board';
            mini.el.querySelector('.mini-head')?.after(h('p', { class: 'mini-where small', 'data-mini-where': true }));
            // No board to draw: its seeds are on a wooden board in the hall.
            if (!onSite) mini.grid.hidden = true;
          }
          if (pairing.game_id && onSite) {
            const gameId = pairing.game_id;
            mini.link.addEventListener('click', () => rememberTournamentOf(gameId, this.store.id));
            this.byGame.set(gameId, mini);
            const board = this.store.boards.get(gameId);
            if (board) mini.update(board);
          }
          this.minis.set(pairing.table, mini);
        }
      }
      this.refreshNames();
      window.setTimeout(() => this.fillMissing(key), FILL_AFTER_MS);
    }
    else this.refreshNames();
    this.showResults();
    this.layout();
  }

  /**
   * The socket sends the boards of the games being played; a game that ended before the
   * page opened (or never had a move) is read once over HTTP so its table is not blank.
   * @param {string} key the round the minis were built for
   */
  async fillMissing(key) {
    for (const [gameId, mini] of this.byGame) {
      if (key !== this.builtFor) return; // rebuilt meanwhile
      if (mini.board) continue;
      try {
        const response = await fetch(`/api/games/${encodeURIComponent(gameId)}`, { credentials: 'same-origin' });
        if (!response.ok) continue;
        const g = await response.json();
        if (mini.board) continue;
        const last = g.history?.length ? g.history[g.history.length - 1].move : null;
        this.store.applyBoard({
          table: mini.pairing.table, game_id: gameId, position: g.position, to_move: g.to_move, last_move: last,
          clock: g.clock, outcome: g.outcome, round: Number(mini.el.dataset.round), version: g.version, status: g.status,
        });
      } catch {
        // the socket's next board will do
      }
    }
  }

  /**
   * The sheet page of a board table, for its two players and the directors (the others
   * have nothing to enter there).
   * @param {RoundView} round @param {PairingView} pairing
   */
  sheetLink(round, pairing) {
    const me = this.store.me?.player_id || this.store.snapshot.you;
    const mine = Boolean(me) && (pairing.first === me || pairing.second === me);
    if (!mine && !this.store.isDirector()) return null;
    return `/t/${encodeURIComponent(this.store.id)}/sheet/${round.number}/${pairing.table}`;
  }

  /** Each table's result from its sheet (corrections included), once the sheet exists. */
  showResults() {
    const round = this.round();
    if (!round) return;
    for (const pairing of round.pairings) {
      const mini = this.minis.get(pairing.table);
      if (!mini) continue;
      mini.pairing = pairing;
      if (pairing.played_at === 'board') this.showWhere(mini, pairing, round);
      if (pairing.sheet) {
        // A sheet names the pairing's first player, whoever moved first.
        const words = RESULT_WORDS[pairing.sheet.first_result] || pairing.sheet.first_result;
        const corrected = pairing.sheet.status === 'corrected' ? ' (corrected by the director)' : '';
        const board = pairing.sheet.over_the_board ? ' · entered at the board' : '';
        mini.showResult(`${this.store.name(pairing.first)} ${words}: ${formatPoints(pairing.sheet.points.first)}–${formatPoints(pairing.sheet.points.second)}${corrected}${board}`);
      }
    }
  }

  /**
   * A board table's mark ("at the board", "relayed by …") and, while no game on the site
   * follows it, what its sheet waits for.
   * @param {import('./miniboard.js').MiniBoard} mini @param {PairingView} pairing @param {RoundView} round
   */
  showWhere(mini, pairing, round) {
    const where = /** @type {HTMLElement | null} */ (mini.el.querySelector('[data-mini-where]'));
    const board = pairing.board;
    const text = board?.relay_name || board?.relayed ? `At the board · relayed${board.relay_name ? ` by ${board.relay_name}` : ''}` : 'At the board';
    if (where && where.textContent !== text) where.textContent = text;
    if (where) where.dataset.relayed = String(Boolean(board?.relayed));
    if (pairing.sheet || board?.relayed) return;
    let waits = 'Played at the board';
    if (round.status === 'paired') waits = 'Played at the board; not started';
    else if (board?.missing) waits = 'Time is up: the director adjudicates';
    else if (board?.waiting_for_director) waits = 'Entries differ: the director settles it';
    else if (board?.entries.length) waits = `Result entered by ${board.entries[0].by_name}; waiting for initials`;
    if (mini.status.textContent !== waits) mini.status.textContent = waits;
  }

  refreshNames() {
    const points = new Map(this.store.snapshot.standings.map((s) => [s.player_id, s.points]));
    for (const mini of this.minis.values()) {
      const [south, north] = seats(mini.pairing);
      mini.setNames(
        { first: this.store.name(south), second: this.store.name(north) },
        { first: points.get(south) ?? 0, second: north ? points.get(north) ?? 0 : null },
      );
    }
    if (this.query) this.layout();
  }

  /** @param {import('./tournamentstore.js').BoardView} board */
  onBoard(board) {
    const mini = this.byGame.get(board.game_id);
    if (!mini) return;
    const wasPlaying = !mini.board?.outcome;
    mini.update(board);
    // A game that ended leaves the "playing only" view.
    if (this.playingOnly && wasPlaying && board.outcome) this.layout();
    else if (wasPlaying && board.outcome) this.updateSummary();
  }

  /** @param {MiniBoard} mini */
  playing(mini) {
    const round = this.round();
    if (!round || round.status === 'finished') return false;
    return Boolean(mini.pairing.game_id) && !mini.pairing.sheet && !mini.board?.outcome;
  }

  /** The tables to show, in order: pinned first, then by number; filtered and searched. */
  visible() {
    const all = [...this.minis.values()].sort((a, b) => a.pairing.table - b.pairing.table);
    const matches = all.filter((mini) => {
      if (this.playingOnly && !this.playing(mini)) return false;
      if (!this.query) return true;
      const names = mini.names ? `${mini.names.first} ${mini.names.second}`.toLowerCase() : '';
      return names.includes(this.query) || String(mini.pairing.table) === this.query;
    });
    const pinned = matches.filter((m) => this.pins.has(m.pairing.table));
    const rest = matches.filter((m) => !this.pins.has(m.pairing.table));
    return [...pinned, ...rest];
  }

  /**
   * The table shown larger: the first pinned, else the top table still being played, else
   * the top table. Null when there is only one table to show.
   * @param {MiniBoard[]} shown
   */
  featuredOf(shown) {
    if (shown.length < 2) return null;
    return shown.find((m) => this.pins.has(m.pairing.table)) || shown.find((m) => this.playing(m)) || shown[0];
  }

  /** Places the mini-boards: the featured one first (larger), then one page of the rest. */
  layout() {
    const round = this.round();
    this.title.textContent = round ? `Tables — round ${round.number}` : 'Tables';
    const shown = this.visible();
    const featured = this.featuredOf(shown);
    const rest = shown.filter((m) => m !== featured);
    const pages = Math.max(1, Math.ceil(rest.length / TABLES_PER_PAGE));
    this.page = Math.min(Math.max(0, this.page), pages - 1);
    const slice = rest.slice(this.page * TABLES_PER_PAGE, (this.page + 1) * TABLES_PER_PAGE);
    const items = featured ? [featured, ...slice] : slice;
    for (const mini of this.minis.values()) {
      mini.setPinned(this.pins.has(mini.pairing.table));
      if (mini.el.classList.contains('featured') !== (mini === featured)) mini.el.classList.toggle('featured', mini === featured);
    }
    // Re-attaching fifty boards restyles the whole grid: only when the order changed.
    const current = [...this.grid.children];
    if (current.length !== items.length || items.some((mini, i) => current[i] !== mini.el)) {
      replace(this.grid, items.map((mini) => {
        mini.el.setAttribute('role', 'listitem');
        return mini.el;
      }));
    }
    this.pager.hidden = pages <= 1;
    this.prev.disabled = this.page === 0;
    this.next.disabled = this.page >= pages - 1;
    const from = this.page * TABLES_PER_PAGE + 1;
    this.pageInfo.textContent = `Page ${this.page + 1} of ${pages}: tables ${from}–${from + slice.length - 1} of the ${rest.length} below the featured one`;
    this.byes(round);
    this.updateSummary();
  }

  /** @param {RoundView | null} round */
  byes(round) {
    let note = this.el.querySelector('.bye-note');
    const bye = round?.pairings.find((p) => !p.second);
    if (!bye) {
      note?.remove();
      return;
    }
    if (!note) {
      note = h('p', { class: 'bye-note muted small' });
      this.pager.after(note);
    }
    note.textContent = `Table ${bye.table}: ${this.store.name(bye.first)} has the bye.`;
  }

  updateSummary() {
    const round = this.round();
    if (!round) {
      this.summary.textContent = 'No round paired yet.';
      return;
    }
    const minis = [...this.minis.values()];
    const playing = minis.filter((m) => this.playing(m)).length;
    const text = round.status === 'paired'
      ? `${minis.length} table${minis.length === 1 ? '' : 's'} paired; the round has not started.`
      : `${playing} of ${minis.length} table${minis.length === 1 ? '' : 's'} playing.`;
    if (this.summary.textContent !== text) this.summary.textContent = text;
  }

  /** @param {number} now the server's clock */
  tick(now) {
    for (const mini of this.minis.values()) {
      if (mini.el.isConnected) mini.tick(now);
    }
  }
}
