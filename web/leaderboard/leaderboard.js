// The leaderboards `/leaderboards` (and `/leaderboards/<ruleset>`): the best established
// ratings of each ruleset, one tab per ruleset (`GET /api/leaderboards/{ruleset}`;
// provisional ratings are not listed, docs/ratings.md). A tab is a link: each ruleset's
// board has its own address.

import { api } from '../core/api.js';
import { deviceSession } from '../core/session.js';
import { ensureStyle } from '../core/stylesheet.js';
import { h, replace, errorText } from '../core/ui.js';
import { RULESET_NAMES } from '../core/words.js';
import { RULESETS } from '../people/ratings.js';

/**
 * @typedef {{rank: number, username: string, name: string, rating: number, deviation: number,
 *   games: number}} LeaderboardEntry
 * @typedef {{ruleset: string, entries: LeaderboardEntry[]}} Leaderboard
 */

/** @param {HTMLElement} root @param {string | undefined} asked */
export async function mountLeaderboards(root, asked) {
  ensureStyle(new URL('../people/people.css', import.meta.url).href);
  const ruleset = asked && RULESETS.includes(asked) ? asked : 'omweso';
  const name = RULESET_NAMES[ruleset] || ruleset;
  document.title = `Omweso — ${name} leaderboard`;
  root.classList.add('leaderboard-page');
  const tabs = h('nav', { class: 'leaderboard-tabs', 'aria-label': 'Games' },
    RULESETS.map((r) => h('a', {
      href: `/leaderboards/${r}`, 'data-leaderboard-tab': r,
      'aria-current': r === ruleset ? 'page' : null,
    }, RULESET_NAMES[r] || r)));
  const body = h('div', { 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading…'));
  replace(root,
    h('header', { class: 'person-head' }, h('h1', {}, 'Leaderboards')),
    tabs,
    h('section', { class: 'card', 'aria-labelledby': 'board-title' },
      h('h2', { id: 'board-title' }, `${name}: the highest ratings`),
      body,
      h('p', { class: 'muted small' }, 'Established ratings only: a rating is provisional, and not listed, while its deviation is 110 or more.')));
  /** @type {Leaderboard} */
  let board;
  try {
    [board] = await Promise.all([
      api('GET', `/api/leaderboards/${encodeURIComponent(ruleset)}`),
      deviceSession(),
    ]);
  } catch (e) {
    body.removeAttribute('aria-busy');
    replace(body, h('p', { class: 'form-error', role: 'alert' }, `The leaderboard could not be loaded: ${errorText(e)}`));
    return;
  }
  body.removeAttribute('aria-busy');
  replace(body, leaderboardTable(board));
}

/** @param {Leaderboard} board */
export function leaderboardTable(board) {
  if (!board.entries.length) {
    return h('p', { class: 'muted empty', 'data-no-leaders': true }, 'Nobody has an established rating in this game yet.');
  }
  const num = (/** @type {string} */ col, /** @type {string} */ text) => h('td', { class: 'num', 'data-col': col }, text);
  return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Leaderboard' },
    h('table', { class: 'data-table leaderboard-table', 'data-leaderboard': board.ruleset },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', class: 'num' }, '#'), h('th', { scope: 'col' }, 'Player'),
        h('th', { scope: 'col', class: 'num' }, 'Rating'), h('th', { scope: 'col', class: 'num', title: 'Rating deviation' }, '±'),
        h('th', { scope: 'col', class: 'num' }, 'Games'))),
      h('tbody', {}, board.entries.map((e) => h('tr', { 'data-leader': e.username },
        num('rank', String(e.rank)),
        h('th', { scope: 'row' }, h('a', { href: `/@/${encodeURIComponent(e.username)}` }, e.name), h('span', { class: 'muted small' }, ` @${e.username}`)),
        num('rating', String(e.rating)),
        num('deviation', String(e.deviation)),
        num('games', String(e.games)))))));
}
