// The hall screen `/t/<id>/screen`: a tournament on a projector in a school hall, read from
// across the room all day with nobody at the laptop. The name, the round and its countdown
// on top; below, in turn (one view every CYCLE_MS): the pairings by table (paged when more
// tables than fit), the live tables as mini-boards (the tables whose games send `board`
// messages: online and relayed ones), and the standings. The one tournament socket
// (tournamentstore.js, the tournament page's) keeps it current: a round paired, started or
// ended, a sheet in or corrected, a reconnection after the server restarts. No controls: F
// toggles full screen (a hint says so, then hides itself).

import { isMissingTournament, showMissingTournament } from '../tournament/missing.js';
import { readerSession } from '../core/session.js';
import { h, replace, formatRemaining } from '../core/ui.js';
import { RULESET_NAMES, formatPoints } from '../core/words.js';
import { TournamentStore } from '../tournament/tournamentstore.js';
import { MiniBoard } from '../tournament/miniboard.js';
import { southOf, finishedRounds } from '../tournament/standings.js';
import { ensureStyle } from '../core/stylesheet.js';
import { playedAt, whereWords } from '../tournament/playedat.js';

/** @typedef {import('../tournament/tournamentstore.js').PairingView} PairingView */
/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */
/** @typedef {import('../tournament/tournamentstore.js').BoardView} BoardView */
/** @typedef {{kind: 'pairings', page: number, pages: number} | {kind: 'live', page: number, pages: number} | {kind: 'standings', page: 0, pages: 1}} View */

/** How long each view stays up: long enough to find one's name in a list of ten. */
const CYCLE_MS = 15000;
/** A row of the pairings (two names) and of the standings, as a share of the screen's height: legible at ten metres. */
const PAIRING_ROW_VH = 0.085;
const STANDING_ROW_VH = 0.07;
/**
 * Mini-boards on one page of the live view (two side by side: pits a tenth of the screen's
 * height, their counts legible across the room), and the pages of it shown in one cycle
 * (the other tables wait for the next cycles, which carry on where this one stopped).
 */
const LIVE_PER_PAGE = 2;
const LIVE_PAGES_PER_CYCLE = 3;
/** How long the full-screen hint stays. */
const HINT_MS = 12000;
/** Events closer together than this are drawn once (games ending together). */
const RENDER_COALESCE_MS = 200;

/** @param {HTMLElement} root @param {string} id */
export async function mountScreen(root, id) {
  document.body.classList.add('hall-screen-body');
  ensureStyle(new URL('./screen.css', import.meta.url).href);
  let store;
  try {
    // The screen watches as a spectator does: reading needs a session, a nameless one will do.
    store = await TournamentStore.open(id, await readerSession());
  } catch (e) {
    if (isMissingTournament(e)) {
      showMissingTournament(root, 'hall-missing',
        h('p', {}, 'Check the address: it is the tournament page\'s, with /screen at the end.'));
      return;
    }
    throw e;
  }
  new HallScreen(root, store);
}

/** The cycle's time per view: `?cycle=<seconds>` (3 to 300) where a hall wants it slower or faster. */
function cycleMs() {
  const asked = Number(new URLSearchParams(location.search).get('cycle'));
  return Number.isFinite(asked) && asked >= 3 && asked <= 300 ? asked * 1000 : CYCLE_MS;
}

class HallScreen {
  /** @param {HTMLElement} root @param {TournamentStore} store */
  constructor(root, store) {
    this.root = root;
    this.store = store;
    this.cycleMs = cycleMs();
    this.name = h('h1', { class: 'hall-name', id: 'hall-name' });
    this.roundLabel = h('p', { class: 'hall-round', id: 'hall-round' });
    this.countdown = h('p', { class: 'hall-countdown', id: 'hall-countdown', 'aria-live': 'off' });
    // Not a live region: read aloud, a view every 15 seconds would drown everything else.
    this.stage = h('div', { class: 'hall-stage', id: 'hall-stage' });
    this.steps = h('ol', { class: 'hall-steps', 'aria-label': 'The views in turn' });
    this.connection = h('p', { class: 'hall-connection', id: 'hall-connection', hidden: true });
    this.hint = h('p', { class: 'hall-hint', id: 'hall-hint' }, 'Press F for full screen');
    root.classList.add('hall-screen');
    root.setAttribute('data-tournament-id', store.id);
    replace(root,
      h('header', { class: 'hall-head' }, h('div', { class: 'hall-title' }, this.name, this.roundLabel), this.countdown),
      this.stage,
      h('footer', { class: 'hall-foot' }, this.steps, this.connection, this.hint));

    /** @type {Map<string, MiniBoard>} the live tables' boards by game id, kept across redraws */
    this.minis = new Map();
    /** The view shown and when it went up (performance.now()). */
    this.index = 0;
    this.shownAt = performance.now();
    /** @type {View[]} */
    this.views = [];
    /**
     * The live tables' page shown: each live view of the cycle takes the next page, and the
     * next cycle carries on where this one stopped (a redraw keeps the page shown).
     */
    this.livePage = -1;
    /** The round and its status last drawn: a change goes straight to its pairings. */
    this.roundKey = '';
    /** @type {number | undefined} */
    this.renderTimer = undefined;
    /** The live tables when last planned. */
    this.liveKey = '';

    store.subscribe((kind, detail) => this.onChange(kind, detail));
    window.addEventListener('resize', () => this.scheduleRender());
    document.addEventListener('keydown', (ev) => {
      if ((ev.key === 'f' || ev.key === 'F') && !ev.ctrlKey && !ev.metaKey && !ev.altKey) toggleFullScreen();
    });
    document.addEventListener('fullscreenchange', () => {
      if (document.fullscreenElement) this.hint.hidden = true;
    });
    window.setTimeout(() => { this.hint.hidden = true; }, HINT_MS);
    keepAwake();
    this.render();
    window.setInterval(() => this.tick(), 250);
    // Tests read the screen's model through this.
    /** @type {any} */ (window).__omwesoHall = {
      store,
      view: () => this.views[this.index] || null,
      connected: () => store.socket.state === 'open',
    };
  }

  /** @param {import('../tournament/tournamentstore.js').ChangeKind} kind @param {any} detail */
  onChange(kind, detail) {
    if (kind === 'presence' || kind === 'directors') return;
    if (kind === 'connection') {
      this.showConnection(detail.state);
      return;
    }
    if (kind === 'board') {
      this.minis.get(detail.game_id)?.update(detail);
      // A table that starts or stops sending boards (its game began or ended) changes the
      // live view's pages; any other board changes only its mini-board.
      if (liveKey(this.liveTables()) !== this.liveKey) this.scheduleRender();
      return;
    }
    this.scheduleRender();
  }

  scheduleRender() {
    if (this.renderTimer !== undefined) return;
    this.renderTimer = window.setTimeout(() => {
      this.renderTimer = undefined;
      this.render();
    }, RENDER_COALESCE_MS);
  }

  /** @param {string} state */
  showConnection(state) {
    const lost = state !== 'open';
    this.connection.hidden = !lost;
    this.connection.textContent = lost ? 'Reconnecting to the server…' : '';
    this.root.classList.toggle('hall-offline', lost);
  }

  /** The round shown: the last one paired. */
  round() {
    return this.store.currentRound();
  }

  /** The tables of the round with a game being played whose boards come over the socket. */
  liveTables() {
    const round = this.round();
    if (!round || round.status !== 'playing') return [];
    const live = round.pairings.filter((p) => {
      if (!p.second || !p.game_id || p.sheet) return false;
      const board = this.store.boards.get(p.game_id);
      return Boolean(board && !board.outcome);
    });
    // Relayed wooden boards first: the hall cannot see them otherwise.
    const relayed = (/** @type {PairingView} */ p) => (/** @type {any} */ (p).board?.relayed ? 0 : 1);
    return live.sort((a, b) => relayed(a) - relayed(b) || a.table - b.table);
  }

  /** Rows of `share` of the screen's height that fit in the stage (its heading row aside). @param {number} share */
  rowsThatFit(share) {
    const height = this.stage.clientHeight || window.innerHeight * 0.75;
    const row = Math.max(40, window.innerHeight * share);
    return Math.max(3, Math.floor(height / row) - 1);
  }

  /** The views of one cycle, from the state now. @returns {View[]} */
  plan() {
    const round = this.round();
    /** @type {View[]} */
    const views = [];
    const tables = round ? round.pairings.length : 0;
    const perPage = this.rowsThatFit(PAIRING_ROW_VH);
    const pages = Math.max(1, Math.ceil(tables / perPage));
    if (round) for (let page = 0; page < pages; page++) views.push({ kind: 'pairings', page, pages });
    const live = this.liveTables().length;
    const livePages = Math.ceil(live / LIVE_PER_PAGE);
    for (let page = 0; page < Math.min(livePages, LIVE_PAGES_PER_CYCLE); page++) views.push({ kind: 'live', page, pages: livePages });
    if (this.store.snapshot.standings.length) views.push({ kind: 'standings', page: 0, pages: 1 });
    if (!views.length) views.push({ kind: 'standings', page: 0, pages: 1 });
    return views;
  }

  /** Draws the current view again (the data changed), keeping its place in the cycle. */
  render() {
    const snap = this.store.snapshot;
    const round = this.round();
    document.title = `${snap.name} — hall screen`;
    if (this.name.textContent !== snap.name) this.name.textContent = snap.name;
    const planned = snap.rounds_planned || snap.settings.rounds;
    const game = RULESET_NAMES[snap.ruleset] || snap.ruleset;
    this.roundLabel.textContent = round ? `${game} · Round ${round.number} of ${planned}` : `${game} · ${planned} rounds`;
    // A round paired, started or ended: its pairings first, so that players find their tables.
    const key = round ? `${round.number}:${round.status}` : '';
    const before = this.views[this.index];
    this.liveKey = liveKey(this.liveTables());
    this.views = this.plan();
    if (key !== this.roundKey) {
      this.roundKey = key;
      this.index = 0;
      this.shownAt = performance.now();
    } else if (before) {
      // The same view if it is still there (a page that no longer exists: the last one of its kind).
      const same = this.views.findIndex((v) => v.kind === before.kind && v.page === before.page);
      const kind = this.views.map((v) => v.kind).lastIndexOf(before.kind);
      this.index = same >= 0 ? same : kind >= 0 ? kind : Math.min(this.index, this.views.length - 1);
    }
    const after = this.views[this.index];
    this.draw(!before || before.kind !== after.kind || before.page !== after.page);
    this.tick();
  }

  /** Moves to the next view of the cycle. */
  advance() {
    this.views = this.plan();
    this.index = (this.index + 1) % this.views.length;
    if (this.views[this.index].kind === 'live') this.livePage += 1;
    this.liveKey = liveKey(this.liveTables());
    this.shownAt = performance.now();
    this.draw(true);
  }

  /** Draws the view; `fade`: it is another view than the one shown (screen.css fades it in). @param {boolean} fade */
  draw(fade) {
    const view = this.views[this.index];
    this.stage.dataset.view = view.kind;
    this.stage.dataset.page = String(view.page);
    let content;
    if (view.kind === 'pairings') content = this.pairingsView(view.page);
    else if (view.kind === 'live') content = this.liveView();
    else content = this.standingsView();
    // A fade between views, unless reduced motion is asked for (screen.css): the switch alone.
    replace(this.stage, content);
    if (fade) {
      // Restarts the animation (removing and adding the class in one frame would not).
      this.stage.classList.remove('hall-enter');
      void this.stage.offsetWidth;
      this.stage.classList.add('hall-enter');
    }
    replace(this.steps, this.views.map((v, i) => h('li', {
      class: i === this.index ? 'current' : null, 'aria-current': i === this.index ? 'step' : null,
    }, v.kind === 'pairings' ? `Tables${v.pages > 1 ? ` ${v.page + 1}/${v.pages}` : ''}` : v.kind === 'live' ? `Live${v.pages > 1 ? ` ${v.page + 1}` : ''}` : 'Standings')));
  }

  /** The round's tables, one page of them, in large type. @param {number} page */
  pairingsView(page) {
    const round = /** @type {RoundView} */ (this.round());
    const perPage = this.rowsThatFit(PAIRING_ROW_VH);
    const rows = round.pairings.slice(page * perPage, (page + 1) * perPage);
    const points = new Map(this.store.snapshot.standings.map((s) => [s.player_id, s.points]));
    const name = (/** @type {string | null} */ id) => this.store.name(id);
    const pts = (/** @type {string | null} */ id) => (id ? h('span', { class: 'hall-pts' }, formatPoints(points.get(id) ?? 0)) : null);
    const lines = rows.map((p) => {
      const south = southOf(p);
      const north = p.second ? (south === p.first ? p.second : p.first) : null;
      const where = playedAt(p, this.store.snapshot);
      if (!north) {
        return h('div', { class: 'hall-row bye', role: 'row', 'data-hall-table': p.table },
          h('span', { class: 'hall-table', role: 'cell' }, String(p.table)),
          h('span', { class: 'hall-player first', role: 'cell' }, name(south), pts(south)),
          h('span', { class: 'hall-result', role: 'cell' }, p.sheet ? `bye ${formatPoints(p.sheet.points.first)}` : 'bye'),
          h('span', { class: 'hall-player second', role: 'cell' }),
          h('span', { class: 'hall-where', role: 'cell' }));
      }
      return h('div', { class: `hall-row${p.sheet ? ' done' : ''}`, role: 'row', 'data-hall-table': p.table, 'data-played-at': where },
        h('span', { class: 'hall-table', role: 'cell' }, String(p.table)),
        h('span', { class: 'hall-player first', role: 'cell', 'data-first': true }, name(south), pts(south)),
        h('span', { class: 'hall-result', role: 'cell', 'data-hall-result': true }, this.resultText(round, p, south)),
        h('span', { class: 'hall-player second', role: 'cell' }, name(north), pts(north)),
        h('span', { class: 'hall-where', role: 'cell' }, h('span', { class: `hall-mark where-${where}` }, whereWords(p, where))));
    });
    const pages = Math.max(1, Math.ceil(round.pairings.length / perPage));
    const title = `Round ${round.number} — tables${pages > 1 ? ` (${page + 1} of ${pages})` : ''}`;
    return h('section', { class: 'hall-view hall-pairings', 'aria-label': title },
      h('h2', { class: 'hall-view-title' }, title),
      rowsBox(Math.max(rows.length, 6),
        h('div', { class: 'hall-row head', role: 'row' },
          h('span', { class: 'hall-table', role: 'columnheader' }, 'Table'),
          h('span', { class: 'hall-player first', role: 'columnheader' }, 'Moves first'),
          h('span', { class: 'hall-result', role: 'columnheader' }, round.status === 'paired' ? '' : 'Result'),
          h('span', { class: 'hall-player second', role: 'columnheader' }, 'Second'),
          h('span', { class: 'hall-where', role: 'columnheader' }, '')),
        lines));
  }

  /**
   * A table's result once its sheet is in (the points of the player who moved first, then
   * the other's), else where the game is.
   * @param {RoundView} round @param {PairingView} p @param {string} south
   */
  resultText(round, p, south) {
    if (p.sheet) {
      const [a, b] = south === p.first ? [p.sheet.points.first, p.sheet.points.second] : [p.sheet.points.second, p.sheet.points.first];
      return `${formatPoints(a)} – ${formatPoints(b)}`;
    }
    if (round.status === 'paired') return 'vs';
    // A wooden board's sheet on its way: two entries that differ (or a dispute) for the
    // director, an entry (a player's, or a relayed game's end) waiting for initials, none
    // when the time is up.
    const board = /** @type {any} */ (p).board;
    if (board?.waiting_for_director) return 'to the director';
    if (board?.entries?.length) return 'to initial';
    if (board?.missing) return 'no sheet yet';
    if (round.closing || round.status === 'finished') return 'deciding';
    return 'playing';
  }

  /** One page of the live tables as mini-boards: the page `livePage` is at. */
  liveView() {
    const live = this.liveTables();
    const pages = Math.max(1, Math.ceil(live.length / LIVE_PER_PAGE));
    const shown = ((this.livePage % pages) + pages) % pages;
    const tables = live.slice(shown * LIVE_PER_PAGE, (shown + 1) * LIVE_PER_PAGE);
    const snap = this.store.snapshot;
    const points = new Map(snap.standings.map((s) => [s.player_id, s.points]));
    const keep = new Set(live.map((p) => /** @type {string} */ (p.game_id)));
    for (const id of [...this.minis.keys()]) if (!keep.has(id)) this.minis.delete(id);
    const boards = tables.map((p) => {
      const gameId = /** @type {string} */ (p.game_id);
      const south = southOf(p);
      const north = /** @type {string} */ (south === p.first ? p.second : p.first);
      let mini = this.minis.get(gameId);
      if (!mini) {
        mini = new MiniBoard({
          ruleset: snap.ruleset, pairing: p, round: this.round()?.number ?? 0,
          names: { first: this.store.name(south), second: this.store.name(north) }, href: null,
        });
        // A wooden board followed through its relay says so beside its table's number.
        if (/** @type {any} */ (p).board?.relayed) mini.link.after(h('span', { class: 'hall-mark where-board' }, 'relayed live'));
        this.minis.set(gameId, mini);
      }
      mini.setNames({ first: this.store.name(south), second: this.store.name(north) },
        { first: points.get(south) ?? 0, second: points.get(north) ?? 0 });
      const board = this.store.boards.get(gameId);
      if (board) mini.update(board);
      return mini.el;
    });
    const title = `Live tables${pages > 1 ? ` (${shown + 1} of ${pages})` : ''}`;
    return h('section', { class: 'hall-view hall-live', 'aria-label': title },
      h('h2', { class: 'hall-view-title' }, title),
      h('div', { class: `hall-boards count-${boards.length}` }, boards));
  }

  /** The standings, the top rows that fit. */
  standingsView() {
    const snap = this.store.snapshot;
    const rows = this.rowsThatFit(STANDING_ROW_VH);
    const done = finishedRounds(snap);
    const title = snap.status === 'finished' ? 'Final standings' : done ? `Standings after round ${done}` : 'Standings';
    const top = snap.standings.slice(0, rows);
    const more = snap.standings.length - top.length;
    return h('section', { class: 'hall-view hall-standings', 'aria-label': title },
      h('h2', { class: 'hall-view-title' }, title, more > 0 ? h('span', { class: 'hall-more' }, ` — top ${top.length} of ${snap.standings.length}`) : null),
      top.length
        ? rowsBox(Math.max(top.length, 8),
          h('div', { class: 'hall-row head', role: 'row' },
            h('span', { class: 'hall-rank', role: 'columnheader' }, '#'),
            h('span', { class: 'hall-player', role: 'columnheader' }, 'Player'),
            h('span', { class: 'hall-num', role: 'columnheader' }, 'Points'),
            h('span', { class: 'hall-num', role: 'columnheader' }, 'Buchholz'),
            h('span', { class: 'hall-num', role: 'columnheader' }, 'Won–drawn–lost')),
          top.map((s) => h('div', { class: 'hall-row', role: 'row', 'data-hall-player': s.player_id },
            h('span', { class: 'hall-rank', role: 'cell' }, String(s.rank)),
            h('span', { class: 'hall-player', role: 'cell' }, s.name),
            h('span', { class: 'hall-num strong', role: 'cell', 'data-hall-points': true }, formatPoints(s.points)),
            h('span', { class: 'hall-num', role: 'cell' }, String(Math.round(s.buchholz * 100) / 100)),
            h('span', { class: 'hall-num', role: 'cell' }, `${s.wins}–${s.draws}–${s.losses}`))))
        : h('p', { class: 'hall-empty' }, 'The standings appear once the players have joined.'));
  }

  tick() {
    const now = this.store.now();
    const round = this.round();
    let text = '';
    let state = 'idle';
    if (round?.status === 'playing') {
      if (round.closing) {
        text = 'Time is up';
        state = 'closing';
      } else if (round.deadline) {
        text = formatRemaining(round.deadline - now);
        state = round.deadline - now < 5 * 60000 ? 'ending' : 'running';
      } else {
        text = 'Playing';
        state = 'running';
      }
    } else if (round?.status === 'paired') {
      text = 'Starting soon';
      state = 'paired';
    } else if (this.store.snapshot.status === 'finished') {
      text = 'Finished';
    } else if (round?.status === 'finished') {
      text = `Round ${round.number} is over`;
    }
    if (this.countdown.textContent !== text) this.countdown.textContent = text;
    if (this.countdown.dataset.state !== state) this.countdown.dataset.state = state;
    for (const mini of this.minis.values()) if (mini.el.isConnected) mini.tick(now);
    if (performance.now() - this.shownAt >= this.cycleMs && this.views.length > 1) this.advance();
    else if (performance.now() - this.shownAt >= this.cycleMs) this.shownAt = performance.now();
  }
}

/**
 * The rows of a view, sized to share the stage's height among `rows` of them (screen.css
 * reads `--rows`; set through the CSSOM, which the page's CSP allows where a style
 * attribute it would not).
 * @param {number} rows @param {...(Node | Node[])} children
 */
function rowsBox(rows, ...children) {
  const box = h('div', { class: 'hall-rows', role: 'table' }, ...children);
  box.style.setProperty('--rows', String(rows));
  return box;
}

/** @param {PairingView[]} tables */
function liveKey(tables) {
  return tables.map((p) => p.game_id).join(',');
}

function toggleFullScreen() {
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  else document.documentElement.requestFullscreen?.().catch(() => {});
}

/**
 * Asks the laptop not to dim the screen (Screen Wake Lock) while the page is visible: it
 * shows the hall the tournament all day. Where not offered or refused, the screen's own
 * settings decide.
 */
function keepAwake() {
  const nav = /** @type {any} */ (navigator);
  if (!nav.wakeLock?.request) return;
  const ask = () => {
    if (document.visibilityState === 'visible') nav.wakeLock.request('screen').catch(() => {});
  };
  ask();
  document.addEventListener('visibilitychange', ask);
}
