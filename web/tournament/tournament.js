// The tournament page `/t/<id>` for everyone: the header (name, game, system, round n of
// m and the round's countdown), every table live, the standings, the crosstable and the
// round's pairings; the player's own panel; and, for the director and the co-directors,
// the console (mounted when this person gets it, taken down when they lose it). One
// tournament socket feeds it all (tournamentstore.js). `/t/new` is the creation form.

import { isMissingTournament, showMissingTournament } from './missing.js';
import { ensureSession, readerSession } from '../core/session.js';
import { api } from '../core/api.js';
import { h, replace, announce, formatRemaining } from '../core/ui.js';
import { TournamentStore } from './tournamentstore.js';
import { TablesView } from './tables.js';
import { PlayerPanel } from './playerpanel.js';
import { CoDirectorCode } from './codirectorcode.js';
import { standingsTable, crosstable, pairingsTable, finishedRounds } from './standings.js';
import { ConnectionBanner } from '../game/connection.js';
import { RULESET_NAMES, SYSTEM_WORDS, TOURNAMENT_STATUS_WORDS } from '../core/words.js';

/** Events closer together than this are drawn once. */
const RENDER_COALESCE_MS = 150;

/** @param {HTMLElement} root @param {string} id */
export async function mountTournament(root, id) {
  if (id === 'new') {
    const { mountNewTournament } = await import('./tournamentform.js');
    await mountNewTournament(root);
    return;
  }
  // Watching needs no name (joining asks for one, in the player panel).
  const me = await readerSession();
  let store;
  try {
    store = await TournamentStore.open(id, me);
  } catch (e) {
    if (isMissingTournament(e)) {
      showMissingTournament(root, 'card',
        h('p', {}, 'The link may be mistyped, or the tournament was never created on this server.'),
        h('p', {}, h('a', { href: '/' }, 'Back to the lobby')));
      return;
    }
    throw e;
  }
  new TournamentPage(root, store);
}

class TournamentPage {
  /** @param {HTMLElement} root @param {TournamentStore} store */
  constructor(root, store) {
    this.root = root;
    this.store = store;
    this.heading = h('h1', { id: 'tournament-name' });
    this.meta = h('p', { class: 'tournament-meta' });
    this.countdown = h('p', { class: 'round-clock', id: 'round-countdown', 'aria-live': 'off' });
    this.banner = new ConnectionBanner(() => store.socket.reconnectNow());
    // Wide tables scroll sideways on a phone: the scroller is focusable so that a keyboard
    // can scroll it too.
    const scroller = (/** @type {string} */ id, /** @type {string} */ label) => h('div', {
      id, class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': label,
    });
    this.standings = scroller('standings', 'Standings table');
    this.crosstable = scroller('crosstable', 'Crosstable');
    this.pairings = scroller('pairings', 'Pairings table');
    this.directorSlot = h('div', { id: 'director-slot' });
    // The hall's paper and projector (print/print.js, hall/screen.js), for the directors.
    this.hallLinks = h('p', { class: 'director-links no-print', hidden: true },
      h('a', { href: `/t/${encodeURIComponent(store.id)}/print`, 'data-print-sheets': true }, 'Print sheets'), ' · ',
      h('a', { href: `/t/${encodeURIComponent(store.id)}/screen`, target: '_blank', rel: 'noopener', 'data-hall-screen': true }, 'Hall screen'));
    /** @type {(() => void) | null} takes the console down; null while it is not shown */
    this.stopDirector = null;
    /** Whether the console is shown or on its way (its module loading). */
    this.directing = false;
    this.coDirectorCode = new CoDirectorCode(store);
    this.tables = new TablesView(store);
    this.player = new PlayerPanel(store, () => ensureSession());
    /** The round whose start, pairing or end was last said aloud. */
    this.said = '';
    /** @type {number | undefined} a redraw is due */
    this.renderTimer = undefined;
    /** @type {Map<string, import('../lobby/ratingtext.js').RatingBadge>} each player's rating now */
    this.ratings = new Map();
    /** What the ratings were last read for: the players and the rounds finished. */
    this.ratingsKey = '';

    const printButton = (/** @type {string} */ what, /** @type {string} */ label) => h('button', {
      type: 'button', class: 'button secondary small no-print', 'data-print': what,
      onclick: () => printSection(what),
    }, label);
    const link = (/** @type {string} */ href, /** @type {string} */ text) => h('a', { href }, text);
    root.classList.add('tournament-page');
    root.setAttribute('data-tournament-id', store.id);
    replace(root,
      h('header', { class: 'tournament-header card' },
        h('div', { class: 'tournament-title' }, this.heading, this.meta),
        this.countdown),
      this.banner.el,
      h('nav', { class: 'tournament-nav no-print', 'aria-label': 'On this page' },
        link('#tables', 'Tables'), link('#standings-section', 'Standings'),
        link('#pairings-section', 'Pairings'), link('#crosstable-section', 'Crosstable')),
      this.hallLinks,
      this.directorSlot,
      this.player.el,
      this.coDirectorCode.el,
      h('div', { class: 'tournament-grid' },
        this.tables.el,
        h('section', { id: 'standings-section', class: 'card', 'aria-labelledby': 'standings-title' },
          h('div', { class: 'section-head' }, h('h2', { id: 'standings-title' }, 'Standings'), printButton('standings', 'Print the standings')),
          this.standings)),
      h('section', { id: 'pairings-section', class: 'card', 'aria-labelledby': 'pairings-title' },
        h('div', { class: 'section-head' }, h('h2', { id: 'pairings-title' }, 'Pairings'), printButton('pairings', 'Print the pairings')),
        this.pairings),
      h('section', { id: 'crosstable-section', class: 'card', 'aria-labelledby': 'crosstable-title' },
        h('div', { class: 'section-head' }, h('h2', { id: 'crosstable-title' }, 'Crosstable')),
        this.crosstable));

    store.subscribe((kind, detail) => this.onChange(kind, detail));
    this.render();
    this.syncDirector();
    window.setInterval(() => this.tick(), 250);
    // Tests read the page's model through this.
    /** @type {any} */ (window).__omwesoTournament = {
      store,
      snapshot: () => store.snapshot,
      boardLog: store.boardLog,
      connected: () => store.socket.state === 'open',
    };
  }

  /**
   * The console, loaded only for the director and the co-directors: mounted when this
   * person is named co-director while the page is open, taken down when they are removed.
   * The snapshot alone decides (the same person on any of their devices has it).
   */
  async syncDirector() {
    const directs = this.store.isDirector();
    if (directs === this.directing) return;
    this.directing = directs;
    this.hallLinks.hidden = !directs;
    if (!directs) {
      this.stopDirector?.();
      this.stopDirector = null;
      return;
    }
    const { mountDirector } = await import('../director/console.js');
    // Removed again while the module loaded: nothing to show.
    if (!this.directing || this.stopDirector) return;
    this.stopDirector = mountDirector(this.directorSlot, this.store);
  }

  /** @param {import('./tournamentstore.js').ChangeKind} kind @param {any} detail */
  onChange(kind, detail) {
    if (kind === 'board' || kind === 'presence') return;
    if (kind === 'connection') {
      this.banner.update(detail.state, detail);
      return;
    }
    if (kind === 'state' || kind === 'directors') this.syncDirector();
    if (kind === 'round') this.sayRound(detail);
    if (kind === 'status' && detail.status === 'finished') announce('The tournament is over: the final standings are below.');
    this.scheduleRender();
  }

  /**
   * Redraws the tables of record once for a burst of events: when several games end in
   * the same second, each sends a sheet and the standings, and each full redraw of a
   * hundred-player crosstable costs a layout.
   */
  scheduleRender() {
    if (this.renderTimer !== undefined) return;
    this.renderTimer = window.setTimeout(() => {
      this.renderTimer = undefined;
      this.render();
    }, RENDER_COALESCE_MS);
  }

  /** Says a round's change aloud, once (the player's own start is said by their panel). @param {import('./tournamentstore.js').RoundView} round */
  sayRound(round) {
    const key = `${round.number}:${round.status}`;
    if (key === this.said) return;
    this.said = key;
    const me = this.store.me?.player_id;
    const mine = round.pairings.some((p) => p.first === me || p.second === me);
    if (round.status === 'paired') announce(`Round ${round.number} is paired.`);
    else if (round.status === 'playing' && !mine) announce(`Round ${round.number} has started.`);
    else if (round.status === 'finished') announce(`Round ${round.number} is over.`);
  }

  render() {
    const snap = this.store.snapshot;
    const me = this.store.me?.player_id ?? null;
    const round = this.store.currentRound();
    const planned = snap.rounds_planned || snap.settings.rounds;
    document.title = `${snap.name} — Omweso tournament`;
    this.heading.textContent = snap.name;
    const roundText = round ? `round ${round.number} of ${planned}` : `${planned} rounds`;
    const setup = snap.ruleset === 'omweso' ? `, ${snap.settings.setup} start` : '';
    replace(this.meta,
      h('span', {}, `${RULESET_NAMES[snap.ruleset] || snap.ruleset}${setup} · ${SYSTEM_WORDS[snap.system] || snap.system} · ${roundText} · ${snap.settings.round_minutes} min rounds · `),
      h('span', { class: `status-badge status-${snap.status}`, 'data-tournament-status': snap.status }, TOURNAMENT_STATUS_WORDS[snap.status] || snap.status),
      snap.settings.rated ? h('span', { class: 'badge', 'data-rated-tournament': true, title: 'Seeded by rating; games between accounts change ratings' }, 'rated') : null,
      h('span', { class: 'muted' }, ` · ${snap.players.filter((p) => !p.withdrawn).length} players`));
    replace(this.standings, standingsTable(snap, me, this.ratings));
    this.refreshRatings();
    replace(this.crosstable, snap.rounds.length ? crosstable(snap, me) : h('p', { class: 'muted' }, 'The crosstable fills in as rounds are played.'));
    replace(this.pairings, round ? pairingsTable(snap, round.number, me) : h('p', { class: 'muted' }, 'No round paired yet.'));
    const standingsHead = document.getElementById('standings-title');
    const done = finishedRounds(snap);
    if (standingsHead) standingsHead.textContent = snap.status === 'finished' ? 'Final standings' : done ? `Standings after round ${done}` : 'Standings';
    this.tick();
  }

  /**
   * Reads the players' current ratings (GET /api/tournaments/{id}/ratings) when the field
   * or the rounds finished have changed since the last read: a sheet re-rates its players,
   * and between rounds nothing else does, so the page never asks more than once a round.
   * A failed read leaves the names without ratings; the next change tries again.
   */
  async refreshRatings() {
    const snap = this.store.snapshot;
    const key = `${snap.players.length}:${finishedRounds(snap)}:${snap.status}`;
    if (key === this.ratingsKey) return;
    this.ratingsKey = key;
    try {
      const answer = await api('GET', `/api/tournaments/${encodeURIComponent(this.store.id)}/ratings`);
      this.ratings = new Map(answer.players.map((/** @type {{player_id: string, rating: import('../lobby/ratingtext.js').RatingBadge}} */ p) => [p.player_id, p.rating]));
      replace(this.standings, standingsTable(this.store.snapshot, this.store.me?.player_id ?? null, this.ratings));
    } catch {
      // Left without ratings until the field or the rounds change (no retry loop).
    }
  }

  tick() {
    const now = this.store.now();
    const round = this.store.currentRound();
    let text = '';
    if (round?.status === 'playing') {
      const ending = round.ended_by_director ? 'ended by the director' : 'time is up';
      text = round.closing ? `Round ${round.number}: ${ending}, the last games are being decided` : round.deadline ? `Round ${round.number} ends in ${formatRemaining(round.deadline - now)}` : '';
    } else if (round?.status === 'paired') {
      text = `Round ${round.number} is paired and starts when the director says so`;
    } else if (this.store.snapshot.status === 'finished') {
      text = 'The tournament is over';
    }
    if (this.countdown.textContent !== text) this.countdown.textContent = text;
    this.tables.tick(now);
    this.player.tick();
    this.banner.tick();
  }
}

/**
 * Prints one section alone (the pairing list, or the standings), as a club pins it up.
 * @param {string} what
 */
function printSection(what) {
  document.body.dataset.print = what;
  const done = () => {
    delete document.body.dataset.print;
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  window.print();
}
