// The link page `/link`: the code from another device (typed, or in `?code=` from its QR
// code) makes this device that person. Then back to where the person was: `?next=` when it
// is a path on this site, else the lobby; the next page says who this device now is. A
// director's code for a tournament's player goes straight to where the player is (their
// game, their board table's sheet, or the tournament), saying so on the way. A relay's
// code (a volunteer who cannot scan) is said to be one, and leads to the relay's page.

import { useLinkCode } from '../core/api.js';
import { adoptSession, deviceSession, rememberLimit } from '../core/session.js';
import { h, replace, safeStorage } from '../core/ui.js';
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

/**
 * Where a director's code takes the new device, in words, said on the way there.
 * @param {import('../core/api.js').PlayerPlace} place
 */
export function placeWords(place) {
  const where = `table ${place.table}, round ${place.round} of ${place.tournament_name}`;
  if (place.kind === 'game') return `Taking you to your ${where}: your game…`;
  if (place.kind === 'sheet') return `Taking you to your ${where}: its score sheet…`;
  return `Taking you to ${place.tournament_name}…`;
}

/**
 * Where a relay's code leads, in words.
 * @param {import('../core/api.js').RelayPlace} relay
 */
export function relayWords(relay) {
  return `This is a relay's code: taking you to table ${relay.table}, round ${relay.round} of ${relay.tournament_name}, to enter its moves…`;
}

/** @param {HTMLElement} root */
export async function mountLink(root) {
  document.title = 'Omweso — link this device';
  root.classList.add('account-page');
  const found = await deviceSession();
  const code = field('link-code', 'Code', {
    inputmode: 'text', autocapitalize: 'characters', autocomplete: 'one-time-code', spellcheck: false,
    maxlength: 9, placeholder: 'XXXX-XXXX', value: spacedCode(new URLSearchParams(location.search).get('code') || ''),
  }, 'On the other device: Account, then "Link another device" (or the director\'s code for your new device, or a relay\'s code). A device\'s code is good for 10 minutes.');
  code.input.classList.add('code-input');
  code.input.addEventListener('input', () => {
    const spaced = spacedCode(code.input.value);
    if (spaced !== code.input.value) code.input.value = spaced;
  });
  // Where the code leads, said while the next page loads.
  const going = h('p', { class: 'notice', role: 'status', 'data-link-going': true, hidden: true });
  /** @param {string} words */
  const say = (words) => {
    going.textContent = words;
    going.hidden = false;
  };
  const form = apiForm({
    id: 'link', label: 'Link this device', submit: 'Link this device',
    fields: [code.wrap],
    act: async () => {
      const used = await useLinkCode(code.input.value);
      if (used.kind === 'relay') {
        say(relayWords(used.relay));
        location.assign(used.relay.path);
        return;
      }
      const { who, place } = used;
      adoptSession(who);
      if (!place) {
        goSaying(nextPath() || (who.only_tournament ? `/t/${who.only_tournament}` : '/'), `This device is now ${who.name}`);
        return;
      }
      rememberLimit(who, place.tournament_name);
      // The game's page leads back to its tournament (its score sheet is there).
      if (place.kind === 'game') safeStorage(`omweso.tournament-of.${place.path.slice(3)}`, place.tournament_id);
      say(placeWords(place));
      goSaying(place.path, `This device is now ${who.name}, in ${place.tournament_name} only`);
    },
  });

  form.querySelector('button[type="submit"]')?.classList.add('big');
  replace(root, h('div', { class: 'account-narrow' },
    h('section', { class: 'card account-card', 'aria-labelledby': 'link-page-title' },
      h('h1', { id: 'link-page-title' }, 'Link this device'),
      h('p', {}, 'Enter the code shown on your other device to play here as the same person: the same games, seats and tournaments.'),
      found?.named ? h('p', { class: 'notice', 'data-link-note': true },
        `This device plays as ${found.who.name} now. A device's code signs ${found.who.name} out of it; `
        + `${found.who.name}'s games stay with ${found.who.name}${found.who.username ? '' : ' (make an account first to keep them)'}.`) : null,
      form,
      going)));
  // Prefilled from a QR code: the button is what is left to press.
  if (!code.input.value) code.input.focus();
  else /** @type {HTMLElement | null} */ (form.querySelector('button[type="submit"]'))?.focus();
}
