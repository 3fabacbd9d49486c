// An account's password: change it (every other device is then signed out), and ask for a
// new set of recovery codes (the old ones stop working), which takes the password too.

import { changePassword, renewRecoveryCodes } from '../core/api.js';
import { h, toast } from '../core/ui.js';
import { apiForm, passwordField } from './forms.js';

/**
 * The username, for the browser's password manager to file the password under.
 * @param {string} username
 */
function usernameForManagers(username) {
  return h('input', { type: 'text', name: 'username', autocomplete: 'username', value: username, hidden: true, readonly: true, tabindex: -1, 'aria-hidden': 'true' });
}

/**
 * @param {string} username @param {() => void} changed called once the password changed
 */
export function changePasswordForm(username, changed) {
  const current = passwordField('current-password', 'Current password', 'current-password');
  const next = passwordField('new-password', 'New password', 'new-password', 'At least 8 characters. Your other devices are signed out.');
  const form = apiForm({
    id: 'change-password', label: 'Change password', submit: 'Change password',
    fields: [usernameForManagers(username), current.wrap, next.wrap],
    focusFor: (code) => (code === 'weak_password' ? next.input : current.input),
    act: async () => {
      await changePassword(current.input.value, next.input.value);
      current.input.value = '';
      next.input.value = '';
      toast('Your password is changed; your other devices are signed out');
      changed();
    },
  });
  return form;
}

/**
 * @param {string} username @param {(codes: string[]) => void} renewed
 */
export function renewCodesForm(username, renewed) {
  const password = passwordField('codes-password', 'Password', 'current-password');
  return apiForm({
    id: 'renew-codes', label: 'New recovery codes', submit: 'Make new codes',
    intro: [h('p', { class: 'muted small' }, 'Lost your codes, or used some? A new set replaces them: the old ones stop working.')],
    fields: [usernameForManagers(username), password.wrap],
    act: async () => {
      const codes = await renewRecoveryCodes(password.input.value);
      password.input.value = '';
      renewed(codes);
    },
  });
}
