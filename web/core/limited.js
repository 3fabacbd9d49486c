// A device a tournament's director linked for one of its players (a player who lost their
// phone) is that player in that tournament only (docs/accounts.md): the server refuses it
// everything else with `403 limited_device`. On a page outside its tournament, this says
// so at once, with the way back to the tournament and the way to sign it out, instead of
// mounting a page whose calls would all be refused. Loaded only on a device that holds
// such a limit (app.js).

import { me } from './api.js';
import { limitOf, forgetSession, rememberLimit, renderHeader, signOutHere } from './session.js';
import { h, replace } from './ui.js';

/**
 * Whether a limited device may open `path`: its tournament's pages (the page, a board
 * table's sheet, the hall screen), any game (the server lets it into its tournament's
 * only), `/link` and the rules.
 * @param {string} path @param {string} only the tournament's id
 */
export function allowedFor(path, only) {
  const tournament = /^\/t\/([^/]+)(?:\/(?:sheet\/\d+\/\d+|screen))?\/?$/.exec(path);
  if (tournament) return decodeURIComponent(tournament[1]) === only;
  return /^\/(g\/[^/]+|link|howto(\/.*)?)\/?$/.test(path);
}

/**
 * Shows the notice instead of the page when this device is limited and `path` is outside
 * its tournament (asked of the server first: a limit that is gone is forgotten).
 * @param {HTMLElement} root @param {string} path
 * @returns {Promise<boolean>} whether the notice was shown (the page is not mounted)
 */
export async function limitedHere(root, path) {
  const limit = limitOf();
  if (!limit || allowedFor(path, limit.id)) return false;
  const who = await me().catch(() => null);
  if (!who?.only_tournament) {
    if (!who) forgetSession();
    else rememberLimit(who);
    return false;
  }
  rememberLimit(who);
  renderHeader(who);
  const name = limitOf()?.name || 'its tournament';
  document.title = 'Omweso — this device plays in one tournament';
  replace(root, h('div', { class: 'account-narrow' },
    h('section', { class: 'card account-card', 'data-limited-notice': who.only_tournament, 'aria-labelledby': 'limited-title' },
      h('h1', { id: 'limited-title' }, `This device is ${who.name} in ${name} only`),
      h('p', {}, `A director of ${name} linked it for ${who.name}: it plays their games and fills in their sheets there, and nothing else. `
        + 'To use the site as yourself, sign it out first.'),
      h('p', { class: 'form-actions' },
        h('a', { class: 'button primary big', href: `/t/${encodeURIComponent(who.only_tournament)}`, 'data-limited-back': true }, `Back to ${name}`),
        h('button', { type: 'button', class: 'button secondary', 'data-limited-sign-out': true, onclick: signOutHere }, 'Sign out this device')))));
  return true;
}
