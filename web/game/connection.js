// Connecting to a game: whether the game exists (before the socket, and when sockets keep
// being refused), and the banner that says the connection is lost and when the next
// attempt is due, with a "Retry now" button.

import { h, replace, announce } from '../core/ui.js';

/** @typedef {import('../core/livesocket.js').LiveState} ConnectionState */

/**
 * Does the game exist? The answer's Date also shows a server clock far off ours
 * (`skew`: milliseconds to add to ours). Asked only with a session.
 * @param {string} gameId
 * @returns {Promise<{missing: boolean, skew: number}>}
 */
export async function probeGame(gameId) {
  /** @type {Response | null} */
  let response = null;
  try {
    response = await fetch(`/api/games/${encodeURIComponent(gameId)}`, { credentials: 'same-origin' });
  } catch {
    response = null;
  }
  const date = response?.headers.get('Date');
  return { missing: response?.status === 404, skew: date ? Date.parse(date) - Date.now() : 0 };
}

/** Sockets keep being refused: if the server itself answers, there is no such game. */
export async function serverAnswers() {
  try {
    return (await fetch('/healthz', { cache: 'no-store' })).ok;
  } catch {
    return false; // the server is down: keep trying
  }
}

export class ConnectionBanner {
  /** @param {() => void} retryNow */
  constructor(retryNow) {
    this.retryNow = retryNow;
    this.el = h('div', { class: 'conn-banner', id: 'conn-banner', role: 'status', hidden: true });
    /** When the next reconnection attempt is due (local clock). */
    this.retryAt = 0;
  }

  /** @param {ConnectionState} state @param {{attempt: number, retryInMs: number}} info */
  update(state, info) {
    const banner = this.el;
    if (state === 'open' || state === 'closed' || (state === 'connecting' && info.attempt === 0)) {
      if (!banner.hidden && state === 'open') announce('Connection restored.');
      banner.hidden = true;
      banner.removeAttribute('data-connection');
      this.retryAt = 0;
      return;
    }
    banner.hidden = false;
    banner.setAttribute('data-connection', 'lost');
    this.retryAt = info.retryInMs ? Date.now() + info.retryInMs : 0;
    if (info.attempt === 1 && info.retryInMs) announce('Connection lost. Reconnecting.');
    replace(banner,
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('span', { class: 'conn-text' }, 'Connection lost — reconnecting…'),
      h('button', { type: 'button', class: 'link-button', onclick: () => this.retryNow() }, 'Retry now'));
  }

  /** Counts the seconds to the next attempt down. */
  tick() {
    if (this.el.hidden || !this.retryAt) return;
    const text = this.el.querySelector('.conn-text');
    const left = Math.max(0, this.retryAt - Date.now());
    if (text) text.textContent = left > 0 ? `Connection lost — reconnecting in ${Math.ceil(left / 1000)} s…` : 'Connection lost — reconnecting…';
  }
}
