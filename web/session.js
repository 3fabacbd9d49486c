// The guest session: the name prompt, and the header showing who is playing.

import { me as fetchMe, startSession, ApiError } from './api.js';
import { h, replace, safeStorage, forget } from './ui.js';

/** Set in localStorage once this browser holds a session cookie. */
const SESSION_FLAG = 'omweso.session';

/** @typedef {import('./api.js').Me} Me */

/** The session's player, once known (null: none yet). */
/** @type {Me | null} */
let current = null;

/** @param {Me | null} who */
export function renderHeader(who) {
  const slot = document.getElementById('whoami');
  if (!slot) return;
  if (!who) {
    replace(slot);
    return;
  }
  replace(slot,
    h('span', { class: 'whoami-name', 'data-me': who.name }, h('span', { class: 'muted' }, 'Playing as '), h('strong', {}, who.name)),
    h('button', {
      type: 'button', class: 'link-button', 'data-change-name': true,
      onclick: () => {
        askName('Choose a new name. This starts a new guest session: games you are seated in stay with the old one.', true)
          .then(() => location.reload())
          .catch(() => {});
      },
    }, 'change'),
  );
}

/**
 * Shows the name prompt in a dialog-like card over the page; resolves with the new
 * session's player.
 * @param {string} [why]
 * @param {boolean} [cancellable]
 * @returns {Promise<Me>}
 */
export function askName(why, cancellable = false) {
  return new Promise((resolve, reject) => {
    const input = h('input', {
      id: 'name-input', name: 'name', type: 'text', maxlength: 32, required: true, autocomplete: 'nickname',
      value: safeStorage('omweso.name') || '', placeholder: 'e.g. Kato',
    });
    const error = h('p', { class: 'form-error', role: 'alert' });
    const close = () => overlay.remove();
    const form = h('form', {
      class: 'card name-card', 'aria-labelledby': 'name-title',
      onsubmit: async (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        const name = input.value.trim();
        if (!name) {
          error.textContent = 'Please enter a name.';
          return;
        }
        submit.disabled = true;
        try {
          const who = await startSession(name);
          safeStorage('omweso.name', who.name);
          safeStorage(SESSION_FLAG, '1');
          current = who;
          renderHeader(who);
          close();
          resolve(who);
        } catch (e) {
          error.textContent = e instanceof Error ? e.message : String(e);
          submit.disabled = false;
        }
      },
    },
    h('h2', { id: 'name-title' }, 'Your name'),
    h('p', { class: 'muted', id: 'name-why' }, why || 'Choose the name other players see. No account needed.'),
    h('label', { for: 'name-input' }, 'Name'),
    input,
    error,
    h('div', { class: 'form-actions' },
      cancellable ? h('button', { type: 'button', class: 'button secondary', onclick: () => { close(); reject(new Error('cancelled')); } }, 'Cancel') : null,
    ));
    const submit = h('button', { id: 'name-submit', type: 'submit', class: 'button primary' }, 'Continue');
    form.querySelector('.form-actions')?.append(submit);
    // The dialog is named by its heading and described by why the name is asked.
    const overlay = h('div', {
      class: 'overlay', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'name-title', 'aria-describedby': 'name-why',
    }, form);
    document.body.append(overlay);
    input.focus();
  });
}

/**
 * Asks the server who the session is, but only when this browser made a session before:
 * without one `/api/me` answers 401, which the browser logs as an error in the console.
 * @returns {Promise<Me | null>}
 */
async function lookUp() {
  if (!safeStorage(SESSION_FLAG)) return null;
  let who = null;
  try {
    who = await fetchMe();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
  if (!who) forget(SESSION_FLAG);
  return who;
}

/**
 * The session's player, asking for a name first if there is no session.
 * @param {string} [why]
 * @returns {Promise<Me>}
 */
export async function ensureSession(why) {
  if (current) return current;
  const who = await lookUp();
  if (who) {
    current = who;
    renderHeader(who);
    return who;
  }
  return askName(why);
}

/** The session's player if there is one, without asking. @returns {Promise<Me | null>} */
export async function currentSession() {
  if (current) return current;
  current = await lookUp();
  renderHeader(current);
  return current;
}
