// "Link another device": a one-time code (10 minutes, one use) that makes another phone or
// computer this person, with or without an account. Shown large, to be read across a table,
// with the QR code of the `/link` address that holds it (drawn by the server as SVG, parsed
// as SVG: never as HTML) and the time left.

import { makeLinkCode } from '../core/api.js';
import { h, replace, errorText, formatRemaining } from '../core/ui.js';

/** @typedef {import('../core/api.js').LinkCode} LinkCode */

/** How long a code is good for (docs/protocol.md): used when the phone's clock is off. */
const VALID_MS = 10 * 60 * 1000;

/** How often the devices list is read again while a code is shown (the code may be used). */
const DEVICES_EVERY_MS = 15000;

/** @param {() => void} refreshDevices lists the devices again (a code shown may have been used) */
export function linkCodeCard(refreshDevices) {
  const body = h('div', { class: 'link-code-body', 'aria-live': 'polite' });
  const error = h('p', { class: 'form-error', role: 'alert', 'data-link-code-error': true });
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let ticking;
  const make = h('button', {
    type: 'button', class: 'button primary', id: 'make-link-code', 'data-make-link-code': true,
    onclick: async () => {
      make.disabled = true;
      error.textContent = '';
      try {
        show(await makeLinkCode());
      } catch (e) {
        error.textContent = errorText(e);
      } finally {
        make.disabled = false;
      }
    },
  }, 'Link another device');

  /** @param {LinkCode} code */
  const show = (code) => {
    clearInterval(ticking);
    // The server's deadline, unless this phone's clock disagrees with the server's by more
    // than a minute (the code was made just now: it has about ten minutes).
    let left = code.expires_at_ms - Date.now();
    if (left > VALID_MS + 60000 || left < VALID_MS - 60000) left = VALID_MS;
    const deadline = performance.now() + left;
    let devicesAt = performance.now() + DEVICES_EVERY_MS;
    const countdown = h('span', { 'data-link-countdown': true });
    let origin = location.origin;
    try {
      origin = new URL(code.url).origin;
    } catch {
      // the page's own origin
    }
    replace(body,
      h('p', { class: 'link-instructions' }, 'On the other device open ', h('strong', {}, `${origin}/link`), ' and enter the code, or scan the QR code.'),
      h('p', { class: 'link-code', 'data-link-code': code.code, 'aria-label': `The code: ${code.code.split('').join(' ')}` }, code.code),
      qr(code.qr_svg),
      h('p', { class: 'muted' }, 'Good for one device, for ', countdown, ' more.'));
    make.textContent = 'Make a new code';
    const tick = () => {
      const remaining = deadline - performance.now();
      if (remaining <= 0 || !body.isConnected) {
        clearInterval(ticking);
        if (body.isConnected) {
          replace(body, h('p', { class: 'muted', 'data-link-expired': true }, 'The code expired. Make a new one when the other device is ready.'));
          refreshDevices();
        }
        return;
      }
      if (performance.now() >= devicesAt) {
        devicesAt = performance.now() + DEVICES_EVERY_MS;
        refreshDevices();
      }
      countdown.textContent = formatRemaining(remaining);
    };
    tick();
    ticking = setInterval(tick, 1000);
  };

  const card = h('section', { class: 'card account-card', id: 'link-device', 'aria-labelledby': 'link-title' },
    h('h2', { id: 'link-title' }, 'Link another device'),
    h('p', { class: 'muted small' }, 'Play as this person on another phone or computer too, with or without an account: say, a phone borrowed for the day of a tournament.'),
    body, error, h('div', { class: 'button-row' }, make));
  return card;
}

/**
 * The server's QR code: the SVG document parsed as SVG and its root taken into the page
 * (scripts and foreign content, which a QR code never has, are dropped all the same).
 * @param {string} svg
 */
function qr(svg) {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const root = doc.documentElement;
  if (!svg || root.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length) {
    return h('p', { class: 'muted small' }, 'No QR code: type the code.');
  }
  for (const bad of [...root.querySelectorAll('script, foreignObject')]) bad.remove();
  const image = document.importNode(root, true);
  image.removeAttribute('width');
  image.removeAttribute('height');
  image.setAttribute('role', 'img');
  image.setAttribute('aria-label', 'QR code of the link address with the code');
  image.setAttribute('data-link-qr', '');
  return h('div', { class: 'link-qr' }, image);
}
