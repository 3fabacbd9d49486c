// E-mail, when the server's operator set up mail (docs/accounts.md#e-mail): an account's
// address (confirmed by the link mailed to it), a reset link asked for from "Forgot your
// password?", and the two links' landings on this page (`?verify=` and `?reset=`).

import { askEmailReset, confirmEmailReset, removeEmail, setEmail, verifyEmail } from '../core/api.js';
import { h, replace, toast, errorText } from '../core/ui.js';
import { apiForm, field, passwordField, section } from './forms.js';

/** @typedef {import('../core/api.js').Me} Me */
/** @typedef {import('../core/api.js').AccountInfo} AccountInfo */

/**
 * The account's address: shown with whether it is confirmed, changed (with the password)
 * or removed.
 * @param {AccountInfo} info
 */
export function emailCard(info) {
  const state = h('p', { 'data-email-state': info.email ? (info.email_verified ? 'verified' : 'unverified') : 'none' });
  /** @param {string | undefined} email @param {boolean} verified */
  const say = (email, verified) => {
    state.setAttribute('data-email-state', email ? (verified ? 'verified' : 'unverified') : 'none');
    replace(state, email
      ? h('span', {}, h('strong', {}, email), verified ? ' · confirmed: a forgotten password can be reset by mail' : ' · not confirmed yet: open the link mailed to it')
      : 'No address: a forgotten password is reset with a recovery code only.');
  };
  say(info.email, info.email_verified);
  const email = field('email-address', 'E-mail address', { type: 'email', autocomplete: 'email', autocapitalize: 'none', spellcheck: false, maxlength: 254 });
  const password = passwordField('email-password', 'Password', 'current-password');
  const form = apiForm({
    id: 'set-email', label: 'Set your e-mail address', submit: 'Send the confirmation link',
    fields: [email.wrap, password.wrap],
    focusFor: (code) => (code === 'bad_credentials' ? password.input : email.input),
    act: async () => {
      await setEmail(email.input.value.trim(), password.input.value);
      say(email.input.value.trim(), false);
      password.input.value = '';
      toast('A confirmation link is on its way: open it to confirm the address');
    },
  });
  const remove = h('button', {
    type: 'button', class: 'button secondary', 'data-remove-email': true,
    onclick: async () => {
      try {
        await removeEmail();
        say(undefined, false);
        toast('Your address is removed');
      } catch (e) {
        toast(errorText(e), 'error');
      }
    },
  }, 'Remove the address');
  return section('email', 'E-mail', h('p', { class: 'muted small' },
    'Only for resetting a forgotten password: nothing else is ever mailed, and nobody else sees it.'),
  state, form, h('div', { class: 'button-row' }, remove));
}

/** "Mail me a reset link", inside "Forgot your password?". */
export function emailResetForm() {
  const username = field('reset-username', 'Username', { autocomplete: 'username', autocapitalize: 'none', spellcheck: false, maxlength: 24 });
  const sent = h('p', { class: 'notice', 'data-reset-sent': true, hidden: true });
  const form = apiForm({
    id: 'email-reset', label: 'Mail me a reset link', submit: 'Mail me a link',
    intro: [h('p', { class: 'muted small' }, 'If your account has a confirmed address, a link to set a new password is mailed to it; it works once, for 30 minutes.')],
    fields: [username.wrap],
    act: async () => {
      await askEmailReset(username.input.value.trim());
      sent.hidden = false;
      sent.textContent = 'If that account has a confirmed address, the link is on its way. Check your mail.';
    },
  });
  return h('div', {}, form, sent);
}

/**
 * A reset link's landing: a new password, then this device is logged in.
 * @param {string} code @param {(who: Me) => void} done
 */
export function resetLanding(code, done) {
  const password = passwordField('reset-password', 'New password', 'new-password', 'At least 8 characters. Your other devices are signed out.');
  return section('reset', 'Set a new password', apiForm({
    id: 'reset-confirm', label: 'Set a new password', submit: 'Set the new password',
    fields: [password.wrap],
    focusFor: () => password.input,
    act: async () => done(await confirmEmailReset(code, password.input.value)),
  }));
}

/**
 * A confirmation link's landing: confirms the address and says so (the page goes on as
 * usual). @param {string} code
 */
export async function confirmLanding(code) {
  try {
    await verifyEmail(code);
    toast('Your e-mail address is confirmed');
  } catch (e) {
    toast(errorText(e), 'error');
  }
}
