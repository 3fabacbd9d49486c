// The player page `/@/<username>`: an account's name, username, since when, its ratings per
// ruleset with their charts, its results by ruleset, and its recent games (each linking to
// its permanent page `/g/<id>`) and tournaments, for anyone (`GET /api/players/{username}`
// and its rating history; no session needed, so a visitor's page makes none).

import { playerPage, ApiError } from '../core/api.js';
import { deviceSession } from '../core/session.js';
import { h, replace } from '../core/ui.js';
import { ensureStyle } from '../core/stylesheet.js';
import { personLists } from './gamelist.js';
import { ratingHistory, ratingsSection, resultsSection } from './ratings.js';
import { day } from '../core/when.js';

/**
 * The page's answer with what the ratings (`ratings`) and the archive (`results`) add to
 * it (docs/protocol.md); either is absent from a server without them.
 * @typedef {import('../core/api.js').PlayerPage & {
 *   ratings?: import('./ratings.js').RatingView[],
 *   results?: import('./ratings.js').RulesetResults[]}} RatedPlayerPage
 */

/** @param {HTMLElement} root @param {string} username */
export async function mountPlayer(root, username) {
  document.title = `Omweso — @${username}`;
  root.classList.add('person-page');
  ensureStyle(new URL('./people.css', import.meta.url).href);
  replace(root, h('p', { class: 'muted', 'aria-busy': 'true' }, 'Loading…'));
  // The header says who is reading (the page needs no session: none is made).
  const [page] = await Promise.all([
    playerPage(username).catch((e) => {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }),
    deviceSession(),
  ]);
  const rated = /** @type {RatedPlayerPage | null} */ (page);
  // The history is asked only of an account that has ratings (a page with nothing to
  // chart costs no second request on a slow phone, and no player asks for none). The
  // charts are an extra: a history that fails (a 500, a 503 while the server is busy)
  // leaves the page drawn without them rather than no page at all.
  const history = rated?.ratings?.length
    ? await ratingHistory(username).catch(() => null)
    : { rulesets: [] };
  if (!page || !rated) {
    replace(root, h('section', { class: 'card' },
      h('h1', {}, 'No such player'),
      h('p', { 'data-no-player': true }, `Nobody has the username @${username}. Guests have no player page: only accounts do.`),
      h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))));
    return;
  }
  document.title = `Omweso — ${page.name}`;
  replace(root,
    h('header', { class: 'person-head' },
      h('h1', { 'data-player-name': true }, page.name),
      h('p', { class: 'muted' }, h('span', { 'data-player-username': true }, `@${page.username}`), ` · member since ${day(page.member_since_ms)}`)),
    h('div', { class: 'person-grid' },
      ratingsSection(rated.ratings || [], history || { rulesets: [] }),
      history ? null : h('p', { class: 'muted small', 'data-no-rating-charts': true }, 'The rating charts could not be loaded just now; reload the page to try again.'),
      resultsSection(rated.results),
      ...personLists(page, {
        games: 'No games yet.', tournaments: 'No tournaments yet.',
      })));
}
