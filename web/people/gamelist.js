// A person's games and tournaments as lists of links (the player page `/@/<username>` and
// "Your games" `/me` show the same answer: docs/protocol.md, `PlayerPage`).

import { h } from '../core/ui.js';
import { RULESET_NAMES, TOURNAMENT_STATUS_WORDS } from '../core/words.js';
import { day } from '../core/when.js';

/** @typedef {import('../core/api.js').PlayerGame} PlayerGame */
/** @typedef {import('../core/api.js').PlayerTournament} PlayerTournament */

const RESULTS = /** @type {Record<string, string>} */ ({ won: 'Won', lost: 'Lost', drawn: 'Drawn' });

/** What a game without a result is doing. */
const GAME_STATUS = /** @type {Record<string, string>} */ ({
  setup: 'Not started', playing: 'Being played', finished: 'Over', annulled: 'Annulled',
});

const ROLES = /** @type {Record<string, string>} */ ({
  director: 'Director', 'co-director': 'Co-director', player: 'Player',
});

/**
 * The games, the newest first; `empty` said when there are none.
 * @param {PlayerGame[]} games @param {string} empty
 */
export function gamesList(games, empty) {
  if (!games.length) return h('p', { class: 'muted empty', 'data-no-games': true }, empty);
  return h('ul', { class: 'game-list person-games', 'data-person-games': true }, games.map((game) => {
    const ruleset = RULESET_NAMES[game.ruleset] || game.ruleset;
    const against = game.opponent ? `${ruleset} against ${game.opponent}` : `${ruleset}, no opponent yet`;
    const result = RESULTS[game.result] || GAME_STATUS[game.status] || game.status;
    return h('li', { class: 'game-row person-row', 'data-person-game': game.id, 'data-result': game.result },
      h('div', { class: 'game-row-main' },
        h('a', { class: 'person-row-link', href: `/g/${encodeURIComponent(game.id)}` }, against),
        h('p', { class: 'muted small' }, day(game.created_at_ms))),
      h('span', { class: `result-badge result-${game.result}` }, result));
  }));
}

/**
 * The tournaments, the newest first.
 * @param {PlayerTournament[]} tournaments @param {string} empty
 */
export function tournamentsList(tournaments, empty) {
  if (!tournaments.length) return h('p', { class: 'muted empty', 'data-no-tournaments': true }, empty);
  return h('ul', { class: 'game-list person-tournaments', 'data-person-tournaments': true }, tournaments.map((t) =>
    h('li', { class: 'game-row person-row', 'data-person-tournament': t.id },
      h('div', { class: 'game-row-main' },
        h('a', { class: 'person-row-link', href: `/t/${encodeURIComponent(t.id)}` }, t.name),
        h('p', { class: 'muted small' }, `${RULESET_NAMES[t.ruleset] || t.ruleset} · ${TOURNAMENT_STATUS_WORDS[t.status] || t.status} · ${day(t.created_at_ms)}`)),
      h('span', { class: 'result-badge' }, ROLES[t.role] || t.role))));
}

/**
 * The two lists under their headings.
 * @param {import('../core/api.js').PlayerPage} page @param {{games: string, tournaments: string}} empty
 */
export function personLists(page, empty) {
  return [
    h('section', { class: 'card', 'aria-labelledby': 'games-title' },
      h('h2', { id: 'games-title' }, 'Games'),
      gamesList(page.games, empty.games)),
    h('section', { class: 'card', 'aria-labelledby': 'tournaments-title' },
      h('h2', { id: 'tournaments-title' }, 'Tournaments'),
      tournamentsList(page.tournaments, empty.tournaments)),
  ];
}
