// "Your games" `/me`: the games and tournaments of the person this device is, a guest's
// too (`GET /api/me/games`). A guest is told that only an account keeps them past this
// device; a visitor with no session is asked for nothing (no session is made to say so).

import { myGames } from '../core/api.js';
import { deviceSession } from '../core/session.js';
import { h, replace } from '../core/ui.js';
import { personLists } from './gamelist.js';

/** @param {HTMLElement} root */
export async function mountMyGames(root) {
  document.title = 'Omweso — your games';
  root.classList.add('person-page');
  replace(root, h('p', { class: 'muted', 'aria-busy': 'true' }, 'Loading…'));
  const found = await deviceSession();
  const title = h('h1', {}, 'Your games');
  if (!found) {
    replace(root, h('header', { class: 'person-head' }, title),
      h('section', { class: 'card' },
        h('p', { 'data-no-games': true }, 'This device has played no games yet.'),
        h('p', {}, h('a', { href: '/' }, 'Start one in the lobby'), ', or ', h('a', { href: '/account' }, 'log in'), ' to see your account\'s games.')));
    return;
  }
  const page = await myGames();
  const account = Boolean(found.who.username);
  replace(root,
    h('header', { class: 'person-head' }, title,
      account
        ? h('p', { class: 'muted' }, `${page.name} · `, h('a', { href: `/@/${encodeURIComponent(page.username || '')}`, 'data-profile-link': true }, 'your player page'), ' (what others see)')
        : h('p', { class: 'notice guest-note', 'data-guest-note': true },
          `You are playing as ${page.name}, a guest. `,
          h('a', { href: '/account', 'data-make-account-link': true }, 'Make an account'), ' to keep these past this device.')),
    h('div', { class: 'person-grid' }, ...personLists(page, {
      games: 'No games yet: start one in the lobby.', tournaments: 'No tournaments yet.',
    })));
}
