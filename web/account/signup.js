// "Make an account": a username and a password. Made from a guest device, the guest
// becomes the account (the same person: its games, seats and tournaments stay its own, a
// game being played goes on); made with no session, a new person.

import { makeAccount } from '../core/api.js';
import { h } from '../core/ui.js';
import { apiForm, field, passwordField } from './forms.js';

/** @typedef {import('../core/api.js').Me} Me */

/**
 * @param {Me | null} guest the named guest this device is, if any
 * @param {(who: Me, codes: string[]) => void} made
 */
export function signUpForm(guest, made) {
  const username = field('signup-username', 'Username', {
    autocomplete: 'username', autocapitalize: 'none', spellcheck: false, minlength: 2, maxlength: 24,
  }, '2 to 24 letters or digits; - _ and . between them. Others find your games by it.');
  const password = passwordField('signup-password', 'Password', 'new-password',
    'At least 8 characters. A few words you will remember are best.');
  return apiForm({
    id: 'signup', label: 'Make an account', submit: 'Make my account',
    intro: [guest
      ? h('p', { 'data-guest-becomes': true }, `You play as ${guest.name}, a guest. Make the account here and ${guest.name} becomes it: your games and tournaments stay yours, and a game you are playing goes on.`)
      : h('p', {}, 'An account keeps your games and tournaments, and you can log in on any device.')],
    fields: [username.wrap, password.wrap],
    focusFor: (code) => (code === 'weak_password' ? password.input : username.input),
    act: async () => {
      const answer = await makeAccount(username.input.value.trim(), password.input.value);
      made(answer.who, answer.recoveryCodes);
    },
  });
}
