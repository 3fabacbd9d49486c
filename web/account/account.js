// The account page `/account`. For a guest or a visitor: make an account (a guest becomes
// it, keeping everything), log in, or set a new password with a recovery code; a guest also
// links another device and sees its devices. For an account: who it is and since when, its
// devices, linking another device, its password and recovery codes.

import { myGames, signOut, ApiError } from '../core/api.js';
import { adoptSession, deviceSession, forgetSession } from '../core/session.js';
import { h, replace, toast, errorText } from '../core/ui.js';
import { day } from '../people/when.js';
import { devicesCard } from './devices.js';
import { linkCodeCard } from './linkcode.js';
import { logInForm, recoveryForm } from './login.js';
import { changePasswordForm, renewCodesForm } from './password.js';
import { recoveryCodesCard } from './recoverycodes.js';
import { signUpForm } from './signup.js';
import { section } from './forms.js';
import { goSaying, nextPath } from './next.js';

/** @typedef {import('../core/api.js').Me} Me */

/** @param {HTMLElement} root */
export async function mountAccount(root) {
  document.title = 'Omweso — your account';
  root.classList.add('account-page');
  const found = await deviceSession();
  if (found?.who.username) accountView(root, found.who);
  else guestView(root, found?.named ? found.who : null);
}

/** Signs this device out and reloads the page, as the header's menu does. */
function signOutHere() {
  signOut()
    .catch((e) => { if (!(e instanceof ApiError)) throw e; })
    .finally(() => {
      forgetSession();
      location.reload();
    });
}

/**
 * The page for a device that is no account: a named guest (`guest`), or nobody yet.
 * @param {HTMLElement} root @param {Me | null} guest
 */
function guestView(root, guest) {
  /** @param {Me} who */
  const signedIn = (who) => {
    adoptSession(who);
    const said = `You are logged in as ${who.name}`;
    const next = nextPath();
    if (next) goSaying(next, said);
    else {
      toast(said);
      accountView(root, who);
    }
  };
  // A guest's devices: linking another one is how a guest moves without an account.
  const devices = guest ? devicesCard(signOutHere) : null;
  replace(root,
    h('header', { class: 'person-head' },
      h('h1', { tabindex: -1 }, 'Your account'),
      guest
        ? h('p', { 'data-account-state': 'guest' }, `You play as ${guest.name}, a guest on this device.`)
        : h('p', { 'data-account-state': 'visitor' }, 'You have no account on this device yet.')),
    h('div', { class: 'account-grid' },
      section('make-account', 'Make an account', signUpForm(guest, (who, codes) => {
        adoptSession(who);
        showCodes(root, codes, () => {
          const next = nextPath();
          if (next) goSaying(next, `Your account is made: ${who.name} is @${who.username}`);
          else accountView(root, who);
        });
      })),
      section('log-in', 'Log in', logInForm(guest, signedIn), recoveryForm(signedIn)),
      devices ? linkCodeCard(() => devices.refresh()) : section('use-code', 'Have a code from your other device?',
        h('p', {}, 'A device you play on shows a link code under "Link another device". ',
          h('a', { href: `/link${nextPath() ? `?next=${encodeURIComponent(nextPath() || '')}` : ''}`, 'data-use-code-link': true }, 'Enter the code here'), ' to play as that person on this device too.')),
      devices ? devices.card : null));
}

/**
 * The codes, shown once; then `done`.
 * @param {HTMLElement} root @param {string[]} codes @param {() => void} done
 */
function showCodes(root, codes, done) {
  const card = recoveryCodesCard(codes, done);
  replace(root, h('div', { class: 'account-narrow' }, card));
  card.focus();
  window.scrollTo(0, 0);
}

/**
 * The page for an account.
 * @param {HTMLElement} root @param {Me} who
 */
function accountView(root, who) {
  const username = who.username || '';
  const since = h('span', { 'data-member-since': true });
  const devices = devicesCard(signOutHere);
  const title = h('h1', { tabindex: -1 }, 'Your account');
  replace(root,
    h('header', { class: 'person-head' },
      title,
      h('p', { 'data-account-state': 'account' },
        h('strong', { 'data-account-name': true }, who.name), ' · ',
        h('span', { 'data-account-username': true }, `@${username}`), since),
      h('nav', { class: 'button-row', 'aria-label': 'Your pages' },
        h('a', { class: 'button secondary', href: '/me', 'data-my-games': true }, 'Your games'),
        h('a', { class: 'button secondary', href: `/@/${encodeURIComponent(username)}`, 'data-profile-link': true }, 'Your player page'))),
    h('div', { class: 'account-grid' },
      devices.card,
      linkCodeCard(() => devices.refresh()),
      section('password', 'Change password', changePasswordForm(username, () => devices.refresh())),
      section('codes', 'Recovery codes', renewCodesForm(username, (codes) => showCodes(root, codes, () => accountView(root, who)))),
      section('sign-out', 'Sign out',
        h('p', { class: 'muted small' }, 'Sign this device out. Your account and your other devices are not touched.'),
        h('div', { class: 'button-row' }, h('button', { type: 'button', class: 'button secondary', 'data-sign-out-page': true, onclick: signOutHere }, 'Sign out this device')))));
  if (document.activeElement === document.body || !document.activeElement?.isConnected) title.focus();
  myGames()
    .then((page) => { since.textContent = ` · member since ${day(page.member_since_ms)}`; })
    .catch((e) => { since.textContent = ` (${errorText(e)})`; });
}
