// The lobby (`/`): create a game and get its invite link, join an open game, watch a live
// one; join, watch or read a tournament, or create one. The lists are pushed by the lobby
// socket (`/ws/lobby`): a new game or tournament appears as soon as it exists.

import { api, ApiError } from '../core/api.js';
import { RULESET_NAMES, SYSTEM_WORDS, describeTimeControl } from '../core/words.js';
import { plural } from '../core/plural.js';
import { ensureSession, readerSession } from '../core/session.js';
import { h, replace, toast } from '../core/ui.js';
import { LiveSocket } from '../core/livesocket.js';
import { computerCard } from './computerform.js';
import { gameForm } from './gameform.js';
import { ratingText } from './ratingtext.js';
import { timeOfDay } from '../core/when.js';

/**
 * A game as the lobby lists it.
 * @typedef {{game_id: string, ruleset: string, setup: string, status: string,
 *   seats: {s: string|null, n: string|null}, time_control: TimeControl,
 *   spectators: number, moves?: number, computer?: {seat: 's'|'n', level: number},
 *   rated?: boolean, ratings?: {s?: import('./ratingtext.js').RatingBadge, n?: import('./ratingtext.js').RatingBadge}}} Listed
 */
/**
 * @typedef {{referee_seconds: number|null, move_limit_seconds: number|null,
 *   sowing_pace?: number, akakyala?: boolean}} TimeControl
 */
/**
 * A tournament as the lobby lists it.
 * @typedef {{tournament_id: string, name: string, ruleset: string, system: string,
 *   status: 'open'|'running'|'finished', players: number, round: number}} ListedTournament
 */
/**
 * What the lobby socket pushes.
 * @typedef {{open_games: Listed[], live_games: Listed[],
 *   tournaments: {open: ListedTournament[], running: ListedTournament[], finished: ListedTournament[]}}} LobbyLists
 */

const SETUP_NAMES = /** @type {Record<string, string>} */ ({
  outer: 'outer row (4 in each outer pit)', even: 'even (2 in every pit)', free: 'free arrangement',
});


/** @param {HTMLElement} root */
export async function mountLobby(root) {
  document.title = 'Omweso — lobby';
  root.classList.add('lobby');
  replace(root,
    h('section', { class: 'hero' },
      h('h1', {}, 'Omweso'),
      h('p', { class: 'lede' }, 'The Ugandan four-row mancala, played online — with Mweiso from Kagera and Oware (Abapa). Create a game, send the link to a friend, or watch a game being played.'),
      h('nav', { class: 'lobby-links', 'aria-label': 'Learn the games' },
        h('a', { href: '/howto/omweso', class: 'button secondary small', 'data-howto': 'omweso' }, 'How to play Omweso'),
        h('a', { href: '/howto/mweiso', class: 'button secondary small', 'data-howto': 'mweiso' }, 'How to play Mweiso'),
        h('a', { href: '/howto/oware', class: 'button secondary small', 'data-howto': 'oware' }, 'How to play Oware'),
        h('a', { href: `/analysis${location.search}`, class: 'button secondary small', 'data-analysis-link': true }, 'Analysis board')),
      h('nav', { class: 'lobby-links', 'aria-label': 'Players and games' },
        h('a', { href: '/leaderboards', class: 'button secondary small', 'data-leaderboards-link': true }, 'Leaderboards'),
        h('a', { href: '/games', class: 'button secondary small', 'data-archive-link': true }, 'Game archive'))),
  );
  // A visitor reads the lobby without a name; the name is asked when they act.
  await readerSession();

  const openList = h('ul', { class: 'game-list', id: 'open-games', 'aria-busy': 'true' }, h('li', { class: 'muted' }, 'Loading…'));
  const liveList = h('ul', { class: 'game-list', id: 'live-games', 'aria-busy': 'true' }, h('li', { class: 'muted' }, 'Loading…'));
  const tournamentLists = {
    open: h('ul', { class: 'game-list', id: 'open-tournaments' }),
    running: h('ul', { class: 'game-list', id: 'running-tournaments' }),
    finished: h('ul', { class: 'game-list', id: 'finished-tournaments' }),
  };
  const status = h('p', { class: 'muted small', id: 'lobby-status' });

  root.append(
    h('div', { class: 'lobby-grid' },
      createCard(),
      computerCard(),
      h('section', { class: 'card', 'aria-labelledby': 'open-title' },
        h('h2', { id: 'open-title' }, 'Open games'),
        h('p', { class: 'muted small' }, 'Waiting for a second player.'),
        openList),
      h('section', { class: 'card', 'aria-labelledby': 'live-title' },
        h('h2', { id: 'live-title' }, 'Live games'),
        h('p', { class: 'muted small' }, 'Being played now: watch one.'),
        liveList),
      h('section', { class: 'card tournaments-card', 'aria-labelledby': 'tournaments-title' },
        h('h2', { id: 'tournaments-title' }, 'Tournaments'),
        h('p', { class: 'muted small' }, 'Swiss and round-robin events: every table live on one page.'),
        h('a', { class: 'button primary', href: `/t/new${location.search}`, id: 'new-tournament' }, 'Create a tournament'),
        h('h3', { id: 'open-t-title' }, 'Open: join one'), tournamentLists.open,
        h('h3', { id: 'running-t-title' }, 'Being played: watch'), tournamentLists.running,
        h('h3', { id: 'finished-t-title' }, 'Finished: results'), tournamentLists.finished)),
    status,
  );

  /**
   * Each list as last drawn: a push redraws only the lists that changed, so that a link
   * being clicked or focused is not replaced under the pointer.
   * @type {Record<string, string>}
   */
  const drawn = {};
  /** @param {string} key @param {unknown} items @param {() => void} draw */
  const redraw = (key, items, draw) => {
    const text = JSON.stringify(items);
    if (drawn[key] === text) return;
    drawn[key] = text;
    draw();
  };
  /** @param {LobbyLists} lists */
  const show = (lists) => {
    redraw('open', lists.open_games, () => renderOpen(openList, lists.open_games || []));
    redraw('live', lists.live_games, () => renderLive(liveList, lists.live_games || []));
    for (const kind of /** @type {const} */ (['open', 'running', 'finished'])) {
      const items = lists.tournaments?.[kind] || [];
      redraw(`t-${kind}`, items, () => renderTournaments(tournamentLists[kind], items, kind));
    }
  };
  // Read once over HTTP so the lists show at once; then the socket pushes every change.
  try {
    const [open, live, tOpen, tRunning, tFinished] = await Promise.all([
      api('GET', '/api/games?list=open'), api('GET', '/api/games?list=live'),
      api('GET', '/api/tournaments?list=open'), api('GET', '/api/tournaments?list=running'),
      api('GET', '/api/tournaments?list=finished'),
    ]);
    show({
      open_games: open.games, live_games: live.games,
      tournaments: { open: tOpen.tournaments, running: tRunning.tournaments, finished: tFinished.tournaments },
    });
  } catch (e) {
    status.textContent = e instanceof ApiError ? `Could not read the lists: ${e.message}` : 'Could not read the lists.';
  }
  const socket = new LiveSocket(() => '/ws/lobby', {
    onMessage: (msg) => {
      if (msg.t !== 'lobby') return;
      show(msg.d);
      status.textContent = `Live: updated ${timeOfDay(Date.now())}`;
    },
    onConnection: (state) => {
      if (state === 'reconnecting') status.textContent = 'Reconnecting to the lobby…';
      if (state === 'open') status.setAttribute('data-live', 'true');
      else status.removeAttribute('data-live');
    },
  });
  socket.connect();
}

/**
 * @param {HTMLElement} list @param {ListedTournament[]} tournaments
 * @param {'open'|'running'|'finished'} kind
 */
function renderTournaments(list, tournaments, kind) {
  if (!tournaments.length) {
    const empty = { open: 'None open right now — create one.', running: 'None being played.', finished: 'None finished yet.' }[kind];
    replace(list, h('li', { class: 'muted empty' }, empty));
    return;
  }
  const action = { open: 'Join', running: 'Watch', finished: 'Results' }[kind];
  replace(list, tournaments.map((t) => h('li', { class: 'game-row', 'data-tournament-row': t.tournament_id },
    h('div', { class: 'game-row-main' },
      h('strong', {}, t.name),
      h('span', { class: 'muted' }, ` · ${RULESET_NAMES[t.ruleset] || t.ruleset}, ${SYSTEM_WORDS[t.system] || t.system}`),
      h('div', { class: 'small muted' }, `${t.players} player${t.players === 1 ? '' : 's'}${t.round ? ` · round ${t.round}` : ''}`)),
    h('a', {
      class: `button ${kind === 'open' ? 'primary' : 'secondary'} small`, href: `/t/${t.tournament_id}${location.search}`,
      'data-tournament-link': t.tournament_id, 'aria-label': `${action}: ${t.name}`,
    }, action))));
}

function createCard() {
  return gameForm({
    key: 'new',
    title: 'New game',
    intro: 'You get a link to send to your opponent.',
    submit: 'Create game',
    time: [
      ['casual', 'Casual: no referee count', 'Take your time: no count, no steals.'],
      ['tournament', 'Tournament: 3 s count', 'A 3 s referee count: when it runs out, your opponent may steal the turn. Akakyala on.']],
    seat: [['first', 'South — you move first'], ['second', 'North — you move second'], ['random', 'Random']],
    seatLabel: 'Your seat',
    rated: true,
  }, 'create-game');
}

/** @param {Listed} g */
function summary(g) {
  const rules = RULESET_NAMES[g.ruleset] || g.ruleset;
  const start = g.ruleset === 'omweso' ? `, ${SETUP_NAMES[g.setup] || g.setup}` : '';
  return `${rules}${start}${g.rated ? ' · rated' : ''}`;
}

/** A seat's name with its rating, `Kato (1500?)`. @param {Listed} g @param {'s'|'n'} side */
function seatName(g, side) {
  const name = g.seats[side];
  if (!name) return '?';
  const rating = ratingText(g.ratings?.[side]);
  return rating ? `${name} (${rating})` : name;
}

/** @param {HTMLElement} list @param {Listed[]} games */
function renderOpen(list, games) {
  list.setAttribute('aria-busy', 'false');
  if (!games.length) {
    replace(list, h('li', { class: 'muted empty' }, 'No open games right now — create one.'));
    return;
  }
  replace(list, games.map((g) => {
    const host = seatName(g, g.seats.s ? 's' : 'n');
    const free = g.seats.s ? 'North' : 'South';
    return h('li', { class: 'game-row', 'data-game-id': g.game_id },
      h('div', { class: 'game-row-main' },
        h('strong', {}, host),
        h('span', { class: 'muted' }, ` · ${summary(g)}`),
        h('div', { class: 'small muted' }, `${describeTimeControl(g.time_control)} · you would play ${free}`)),
      h('button', {
        type: 'button', class: 'button primary small', 'data-join': g.game_id,
        onclick: async (/** @type {MouseEvent} */ ev) => {
          const b = /** @type {HTMLButtonElement} */ (ev.currentTarget);
          b.disabled = true;
          try {
            await ensureSession('Choose the name your opponent sees.', true);
            await api('POST', `/api/games/${g.game_id}/join`);
            location.assign(`/g/${g.game_id}${location.search}`);
          } catch (e) {
            if (e instanceof Error && e.message === 'cancelled') {
              b.disabled = false;
              return;
            }
            toast(e instanceof ApiError && e.status === 409 ? 'Someone else took that seat.' : `Could not join: ${e instanceof Error ? e.message : e}`, 'error');
            b.disabled = false;
          }
        },
      }, 'Join'));
  }));
}

/** @param {HTMLElement} list @param {Listed[]} games */
function renderLive(list, games) {
  list.setAttribute('aria-busy', 'false');
  if (!games.length) {
    replace(list, h('li', { class: 'muted empty' }, 'No games being played right now.'));
    return;
  }
  const detail = (/** @type {Listed} */ g) => `${plural(g.moves ?? 0, 'move')} · ${g.spectators} watching · ${describeTimeControl(g.time_control)}`;
  // The same games in the same order (moves were played): only their counts change.
  const rows = /** @type {HTMLElement[]} */ ([...list.children]);
  if (rows.length === games.length && games.every((g, i) => rows[i].dataset.gameId === g.game_id)) {
    games.forEach((g, i) => {
      const line = rows[i].querySelector('[data-live-detail]');
      if (line && line.textContent !== detail(g)) line.textContent = detail(g);
    });
    return;
  }
  replace(list, games.map((g) => h('li', { class: 'game-row', 'data-game-id': g.game_id },
    h('div', { class: 'game-row-main' },
      h('strong', {}, `${seatName(g, 's')} vs ${seatName(g, 'n')}`),
      h('span', { class: 'muted' }, ` · ${summary(g)}`),
      h('div', { class: 'small muted', 'data-live-detail': true }, detail(g))),
    h('a', { class: 'button secondary small', href: `/g/${g.game_id}${location.search}`, 'data-watch': g.game_id }, 'Watch'))));
}
