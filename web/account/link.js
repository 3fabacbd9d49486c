// The link page `/link`: the code from another device (typed, or in `?code=` from its QR
// code) makes this device that person. Then back to where the person was: `?next=` when it
// is a path on this site, else the lobby; the next page says who this device now is.

import { useLinkCode } from '../core/api.js';
import { adoptSession, deviceSession } from '../core/session.js';
import { h, replace } from '../core/ui.js';
import { apiForm, field } from './forms.js';
import { goSaying, nextPath } from './next.js';

/**
 * A code as it is typed, shown as the other device shows it: capitals, `XXXX-XXXX`.
 * Anything else typed is dropped (the server reads O as 0, I and L as 1).
 * @param {string} typed
 */
export function spacedCode(typed) {
  const bare = typed.toUpperCase().replace(/[^0-9A-Z]/g, '').slice(0, 8);
  return bare.length > 4 ? `${bare.slice(0, 4)}-${bare.slice(4)}` : bare;
}

/** @param {HTMLElement} root */
export async function mountLink(root) {
  document.title = 'Omweso — link this device';
  root.classList.add('account-page');
  const found = await deviceSession();
  const code = field('link-code', 'Code', {
    inputmode: 'text', autocapitalize: 'characters', autocomplete: 'one-time-code', spellcheck: false,
    maxlength: 9, placeholder: 'XXXX-XXXX', value: spacedCode(new URLSearchParams(location.search).get('code') || ''),
  }, 'On the other device: Account, then "Link another device". The code is good for 10 minutes.');
  code.input.classList.add('code-input');
  code.input.addEventListener('input', () => {
    const spaced = spacedCode(code.input.value);
    if (spaced !== code.input.value) code.input.value = spaced;
  });
  const form = apiForm({
    id: 'link', label: 'Link this device', submit: 'Link this device',
    fields: [code.wrap],
    act: async () => {
      const who = await useLinkCode(code.input.value);
      adoptSession(who);
      goSaying(nextPath() || '/', `This device is now ${who.name}`);
    },
  });
  form.querySelector('button[type="submit"]')?.classList.add('big');
  replace(root, h('div', { class: 'account-narrow' },
    h('section', { class: 'card account-card', 'aria-labelledby': 'link-page-title' },
      h('h1', { id: 'link-page-title' }, 'Link this device'),
      h('p', {}, 'Enter the code shown on your other device to play here as the same person: the same games, seats and tournaments.'),
      found?.named ? h('p', { class: 'notice', 'data-link-note': true },
        `This device plays as ${found.who.name} now. The code signs ${found.who.name} out of it; `
        + `${found.who.name}'s games stay with ${found.who.name}${found.who.username ? '' : ' (make an account first to keep them)'}.`) : null,
      form)));
  // Prefilled from a QR code: the button is what is left to press.
  if (!code.input.value) code.input.focus();
  else /** @type {HTMLElement | null} */ (form.querySelector('button[type="submit"]'))?.focus();
}
