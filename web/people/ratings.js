// A player's ratings and results by ruleset on their page `/@/<username>`
// (docs/ratings.md): each ruleset's Glicko-2 rating, its deviation and the provisional mark,
// with the chart of its history (`GET /api/players/{username}/rating-history`), and the
// games won, drawn and lost in each ruleset (`PlayerPage.results`).

import { api, ApiError } from '../core/api.js';
import { h } from '../core/ui.js';
import { RULESET_NAMES } from '../core/words.js';
import { ratingChart } from './ratingchart.js';

/**
 * @typedef {{ruleset: string, rating: number, deviation: number, provisional: boolean,
 *   games: number}} RatingView
 * @typedef {import('./ratingchart.js').RatingPoint} RatingPoint
 * @typedef {{ruleset: string, points: RatingPoint[]}} RulesetHistory
 * @typedef {{rulesets: RulesetHistory[]}} RatingHistory
 * @typedef {{ruleset: string, won: number, lost: number, drawn: number}} RulesetResults
 */

/** The rulesets in the order the pages list them. */
export const RULESETS = ['omweso', 'mweiso', 'oware'];

/**
 * The player's rating history; none when the server has none to give (an older server,
 * or a player who never played a rated game).
 * @param {string} username
 * @returns {Promise<RatingHistory>}
 */
export async function ratingHistory(username) {
  try {
    return await api('GET', `/api/players/${encodeURIComponent(username)}/rating-history`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return { rulesets: [] };
    throw e;
  }
}

/**
 * A rating in words: "1663" or "1663?" while provisional (lichess's mark).
 * @param {{rating: number, provisional: boolean}} rating
 */
export function ratingText(rating) {
  return `${rating.rating}${rating.provisional ? '?' : ''}`;
}

/** @param {string} ruleset */
function byRuleset(ruleset) {
  const i = RULESETS.indexOf(ruleset);
  return i < 0 ? RULESETS.length : i;
}

/**
 * The ratings section: one line per ruleset rated in, with its chart.
 * @param {RatingView[]} ratings
 * @param {RatingHistory} history
 */
export function ratingsSection(ratings, history) {
  const sorted = [...ratings].sort((a, b) => byRuleset(a.ruleset) - byRuleset(b.ruleset));
  const body = sorted.length
    ? h('ul', { class: 'rating-list', 'data-ratings': true }, sorted.map((r) => {
      const name = RULESET_NAMES[r.ruleset] || r.ruleset;
      const points = history.rulesets.find((x) => x.ruleset === r.ruleset)?.points || [];
      return h('li', { class: 'rating-item', 'data-rating': r.ruleset },
        h('div', { class: 'rating-head' },
          h('h3', { class: 'rating-ruleset' }, name),
          h('p', { class: 'rating-value' },
            h('strong', { 'data-rating-value': r.rating }, ratingText(r)),
            h('span', { class: 'muted small' }, ` ± ${r.deviation} · ${r.games} rated game${r.games === 1 ? '' : 's'}`),
            r.provisional ? h('span', { class: 'badge', 'data-provisional': true, title: 'Provisional: the deviation is 110 or more, the rating is still settling' }, 'provisional') : null)),
        ratingChart(points, `${name} rating`));
    }))
    : h('p', { class: 'muted empty', 'data-no-ratings': true }, 'No rated games yet. A new player starts at 1500, provisional.');
  return h('section', { class: 'card person-ratings', 'aria-labelledby': 'ratings-title' },
    h('h2', { id: 'ratings-title' }, 'Ratings'),
    body,
    h('p', { class: 'muted small' }, h('a', { href: '/leaderboards' }, 'Leaderboards')));
}

/**
 * The results section: games won, drawn and lost in each ruleset; null when the server
 * does not send them.
 * @param {RulesetResults[] | undefined} results
 */
export function resultsSection(results) {
  if (!results) return null;
  const rows = [...results].sort((a, b) => byRuleset(a.ruleset) - byRuleset(b.ruleset));
  const num = (/** @type {string} */ col, /** @type {number} */ n) => h('td', { class: 'num', 'data-col': col }, String(n));
  return h('section', { class: 'card person-results', 'aria-labelledby': 'results-title' },
    h('h2', { id: 'results-title' }, 'Results'),
    rows.length
      ? h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Results by game' },
        h('table', { class: 'data-table results-table' },
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, 'Game'), h('th', { scope: 'col', class: 'num' }, 'Won'),
            h('th', { scope: 'col', class: 'num' }, 'Drawn'), h('th', { scope: 'col', class: 'num' }, 'Lost'))),
          h('tbody', {}, rows.map((r) => h('tr', { 'data-results': r.ruleset },
            h('th', { scope: 'row' }, RULESET_NAMES[r.ruleset] || r.ruleset),
            num('won', r.won), num('drawn', r.drawn), num('lost', r.lost))))))
      : h('p', { class: 'muted empty', 'data-no-results': true }, 'No finished games yet.'));
}
