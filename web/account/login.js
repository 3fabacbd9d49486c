// "Log in" (username and password) and "Forgot your password?" (a recovery code sets a
// new one). Either makes this device a device of the account; the device's guest session,
// if any, is signed out and its games stay that guest's.

import { logIn, recover } from '../core/api.js';
import { h } from '../core/ui.js';
import { apiForm, field, passwordField } from './forms.js';

/** @typedef {import('../core/api.js').Me} Me */

/**
 * @param {Me | null} guest the named guest this device is, if any
 * @param {(who: Me) => void} done
 */
export function logInForm(guest, done) {
  const username = field('login-username', 'Username', { autocomplete: 'username', autocapitalize: 'none', spellcheck: false, maxlength: 24 });
  const password = passwordField('login-password', 'Password', 'current-password');
  return apiForm({
    id: 'login', label: 'Log in', submit: 'Log in',
    intro: guest ? [h('p', { class: 'notice', 'data-login-note': true },
      `Logging in signs ${guest.name} out of this device: the games and tournaments ${guest.name} played stay with that guest, not your account. `
      + `If ${guest.name} has games you want to keep, make the account from this device instead.`)] : [],
    fields: [username.wrap, password.wrap],
    focusFor: (code) => (code === 'bad_credentials' ? password.input : username.input),
    act: async () => done(await logIn(username.input.value.trim(), password.input.value)),
  });
}

/**
 * "Forgot your password?", folded until asked for; with `byMail` (the server sends mail)
 * a reset link can be mailed too.
 * @param {(who: Me) => void} done @param {HTMLElement | null} [byMail]
 */
export function recoveryForm(done, byMail = null) {
  const username = field('recover-username', 'Username', { autocomplete: 'username', autocapitalize: 'none', spellcheck: false, maxlength: 24 });
  const code = field('recover-code', 'Recovery code', { autocomplete: 'off', autocapitalize: 'none', spellcheck: false, maxlength: 40 },
    'One of the ten codes you wrote down when you made the account.');
  const password = passwordField('recover-password', 'New password', 'new-password', 'At least 8 characters.');
  const form = apiForm({
    id: 'recover', label: 'Set a new password with a recovery code', submit: 'Set the new password',
    intro: [h('p', { class: 'muted small' }, 'Every other device of the account is signed out; the code then stops working.')],
    fields: [username.wrap, code.wrap, password.wrap],
    focusFor: (c) => ({ bad_code: code.input, weak_password: password.input })[c] || username.input,
    act: async () => done(await recover(username.input.value.trim(), code.input.value.trim(), password.input.value)),
  });
  return h('details', { class: 'forgot', 'data-forgot': true },
    h('summary', { class: 'forgot-summary' }, 'Forgot your password?'), form, byMail);
}
