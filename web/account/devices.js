// The person's devices: what each is, when it was last used, which is this one; a device
// is signed out by its "Sign out" (its token stops working, its sockets close), and every
// other one at once after a second tap (a guest's device cannot come back without a code).

import { devices as fetchDevices, signOutDevice, signOutOtherDevices } from '../core/api.js';
import { h, replace, toast, errorText } from '../core/ui.js';
import { plural } from '../core/plural.js';
import { ago, day } from '../core/when.js';

/** @typedef {import('../core/api.js').Device} Device */

/**
 * The devices' card; `refresh()` lists them again (after a code was used, say).
 * @param {() => void} signOutHere signs this device out (the header's way)
 */
export function devicesCard(signOutHere) {
  const list = h('ul', { class: 'device-list', id: 'device-list', 'aria-busy': 'true' }, h('li', { class: 'muted' }, 'Loading…'));
  const error = h('p', { class: 'form-error', role: 'alert', 'data-devices-error': true });
  const others = h('div', { class: 'button-row' });
  const card = h('section', { class: 'card account-card', id: 'devices', 'aria-labelledby': 'devices-title' },
    h('h2', { id: 'devices-title' }, 'Your devices'),
    h('p', { class: 'muted small' }, 'Every phone or computer you play on as this person. Sign out one you lost or no longer use.'),
    list, error, others);

  const refresh = async () => {
    /** @type {Device[]} */
    let found;
    try {
      found = await fetchDevices();
    } catch (e) {
      error.textContent = errorText(e);
      return;
    }
    list.removeAttribute('aria-busy');
    replace(list, found.map((device) => deviceRow(device)));
    const count = found.filter((d) => !d.current).length;
    replace(others, count ? everywhereElse(count) : null);
  };

  /** @param {Device} device */
  const deviceRow = (device) => h('li', { class: 'device-row', 'data-device': device.id, 'data-current': device.current },
    h('div', { class: 'device-main' },
      h('strong', {}, device.label || 'A device'),
      device.current ? h('span', { class: 'this-device', 'data-this-device': true }, 'this device') : null,
      h('p', { class: 'muted small' }, `Last used ${ago(device.last_seen_ms)} · since ${day(device.created_at_ms)}`),
      device.only_tournament
        ? h('p', { class: 'muted small', 'data-device-limited': device.only_tournament },
          'Linked by a director: you in ', h('a', { href: `/t/${encodeURIComponent(device.only_tournament)}` }, 'that tournament'), ' only')
        : null),
    device.current
      ? h('button', { type: 'button', class: 'button secondary', 'data-sign-out-here': true, onclick: signOutHere }, 'Sign out')
      : h('button', {
        type: 'button', class: 'button secondary', 'data-sign-out-device': device.id,
        'aria-label': `Sign out ${device.label || 'this device'}, last used ${ago(device.last_seen_ms)}`,
        onclick: async (/** @type {MouseEvent} */ ev) => {
          const button = /** @type {HTMLButtonElement} */ (ev.currentTarget);
          button.disabled = true;
          try {
            await signOutDevice(device.id);
            toast(`${device.label || 'The device'} is signed out`);
            await refresh();
            list.closest('section')?.querySelector('h2')?.focus();
          } catch (e) {
            error.textContent = errorText(e);
            button.disabled = false;
          }
        },
      }, 'Sign out'));

  /** "Sign out everywhere else", confirmed by a second tap. @param {number} count */
  const everywhereElse = (count) => {
    const ask = h('button', {
      type: 'button', class: 'button secondary', 'data-sign-out-others': true,
      onclick: () => {
        replace(others,
          h('p', { class: 'small', id: 'others-confirm' }, `Sign out ${plural(count, 'other device')}? They will need to log in or use a link code to come back.`),
          h('button', {
            type: 'button', class: 'button danger', 'data-sign-out-others-confirm': true, 'aria-describedby': 'others-confirm',
            onclick: async () => {
              try {
                await signOutOtherDevices();
                toast(`${plural(count, 'device')} signed out`);
                await refresh();
              } catch (e) {
                error.textContent = errorText(e);
              }
            },
          }, 'Yes, sign them out'),
          h('button', { type: 'button', class: 'button secondary', onclick: () => { replace(others, everywhereElse(count)); } }, 'Cancel'));
        /** @type {HTMLElement | null} */ (others.querySelector('[data-sign-out-others-confirm]'))?.focus();
      },
    }, 'Sign out everywhere else');
    return ask;
  };

  card.querySelector('h2')?.setAttribute('tabindex', '-1');
  refresh();
  return { card, refresh };
}
