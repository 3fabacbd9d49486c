// The player page `/@/<username>`: an account's name, username, since when, and its games
// and tournaments with links, for anyone (`GET /api/players/{username}`; no session needed,
// so a visitor's page makes none).

import { playerPage, ApiError } from '../core/api.js';
import { deviceSession } from '../core/session.js';
import { h, replace } from '../core/ui.js';
import { personLists } from './gamelist.js';
import { day } from './when.js';

/** @param {HTMLElement} root @param {string} username */
export async function mountPlayer(root, username) {
  document.title = `Omweso — @${username}`;
  root.classList.add('person-page');
  replace(root, h('p', { class: 'muted', 'aria-busy': 'true' }, 'Loading…'));
  // The header says who is reading (the page needs no session: none is made).
  const [page] = await Promise.all([
    playerPage(username).catch((e) => {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }),
    deviceSession(),
  ]);
  if (!page) {
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
    h('div', { class: 'person-grid' }, ...personLists(page, {
      games: 'No games yet.', tournaments: 'No tournaments yet.',
    })));
}
