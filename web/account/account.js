// The account page `/account`. For a guest or a visitor: make an account (a guest becomes
// it, keeping everything), log in, or set a new password with a recovery code; a guest also
// links another device and sees its devices. For an account: who it is and since when, its
// devices, linking another device, its password and recovery codes.

import { accountInfo, signOut, ApiError } from '../core/api.js';
import { adoptSession, deviceSession, forgetSession } from '../core/session.js';
import { h, replace, toast } from '../core/ui.js';
import { day } from '../core/when.js';
import { devicesCard } from './devices.js';
import { linkCodeCard } from './linkcode.js';
import { logInForm, recoveryForm } from './login.js';
import { changePasswordForm, renewCodesForm } from './password.js';
import { recoveryCodesCard } from './recoverycodes.js';
import { signUpForm } from './signup.js';
import { section } from './forms.js';
import { confirmLanding, emailCard, emailResetForm, resetLanding } from './email.js';
import { goSaying, nextPath } from './next.js';

/** @typedef {import('../core/api.js').Me} Me */
/** @typedef {import('../core/api.js').AccountInfo} AccountInfo */

/** @param {HTMLElement} root */
export async function mountAccount(root) {
  document.title = 'Omweso — your account';
  root.classList.add('account-page');
  const params = new URLSearchParams(location.search);
  const verify = params.get('verify');
  const reset = params.get('reset');
  if (verify || reset) {
    // A mailed link's code is used once: not left in the address bar or the history.
    params.delete('verify');
    params.delete('reset');
    history.replaceState(null, '', `${location.pathname}${params.size ? `?${params}` : ''}`);
  }
  if (verify) await confirmLanding(verify);
  const found = await deviceSession();
  /** @type {AccountInfo} */
  const info = await accountInfo().catch(() => ({ email_verified: false, email_enabled: false }));
  if (reset) {
    replace(root, h('div', { class: 'account-narrow' }, resetLanding(reset, (who) => {
      adoptSession(who);
      toast(`Your password is set: you are logged in as ${who.name}`);
      accountInfo().then((fresh) => accountView(root, who, fresh)).catch(() => accountView(root, who, info));
    })));
    return;
  }
  if (found?.who.username) accountView(root, found.who, info);
  else guestView(root, found?.named ? found.who : null, info);
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
 * @param {HTMLElement} root @param {Me | null} guest @param {AccountInfo} info
 */
function guestView(root, guest, info) {
  /** @param {Me} who */
  const signedIn = (who) => {
    adoptSession(who);
    const said = `You are logged in as ${who.name}`;
    const next = nextPath();
    if (next) goSaying(next, said);
    else {
      toast(said);
      accountInfo().then((fresh) => accountView(root, who, fresh)).catch(() => accountView(root, who, info));
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
          else accountInfo().then((fresh) => accountView(root, who, fresh)).catch(() => accountView(root, who, info));
        });
      })),
      section('log-in', 'Log in', logInForm(guest, signedIn), recoveryForm(signedIn, info.email_enabled ? emailResetForm() : null)),
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
 * @param {HTMLElement} root @param {Me} who @param {AccountInfo} info
 */
function accountView(root, who, info) {
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
      section('codes', 'Recovery codes', renewCodesForm(username, (codes) => showCodes(root, codes, () => accountView(root, who, info)))),
      info.email_enabled ? emailCard(info) : null,
      section('sign-out', 'Sign out',
        h('p', { class: 'muted small' }, 'Sign this device out. Your account and your other devices are not touched.'),
        h('div', { class: 'button-row' }, h('button', { type: 'button', class: 'button secondary', 'data-sign-out-page': true, onclick: signOutHere }, 'Sign out this device')))));
  if (document.activeElement === document.body || !document.activeElement?.isConnected) title.focus();
  if (info.member_since_ms) since.textContent = ` · member since ${day(info.member_since_ms)}`;
}
