// The session: the name prompt, and the header showing who is playing with the menu of
// their pages (their games, their account, sign out). A session is a device of a person, a
// guest or an account (docs/protocol.md#persons-accounts-and-devices-addition).

import { me as fetchMe, startSession, signOut, rename, ApiError, NO_SESSION, SOCKET_SIGNED_OUT } from './api.js';
import { h, replace, safeStorage, forget, toast } from './ui.js';

/**
 * Set in localStorage once this browser holds a session cookie: `1` for a session under a
 * name the visitor chose, `guest` for the nameless one made silently so that a visitor
 * can read the lobby and the tournaments (whose lists and snapshots need a session)
 * before choosing a name. One per browser, kept: not one per page view, since the server
 * limits the sessions an address makes a minute.
 */
const SESSION_FLAG = 'omweso.session';
const GUEST = 'guest';
/**
 * Set while this device is a player only in one tournament (a director linked it, for a
 * player who lost their phone): `{"id", "name"}` of that tournament, so that a page
 * outside it says so at once instead of asking the server what it will refuse.
 */
const LIMIT = 'omweso.only';

/** @typedef {import('./api.js').Me} Me */

/** The session's player under a chosen name, once known (null: none yet). */
/** @type {Me | null} */
let current = null;

/** Asks for a name from the header, for a visitor who has not chosen one. */
function chooseNameButton() {
  return h('button', {
    type: 'button', class: 'link-button', 'data-choose-name': true,
    onclick: () => { askName(undefined, true).catch(() => {}); },
  }, 'Choose a name');
}

/** What "change" says: the person is renamed, nothing else changes. */
const RENAME_WHY = 'Choose a new name. It changes on all your devices and in your tournaments; '
  + 'your games and seats stay yours (a game already joined keeps the name it was joined with).';

/**
 * The tournament this device is limited to, if a director linked it for a player.
 * @returns {{id: string, name: string} | null}
 */
export function limitOf() {
  const text = safeStorage(LIMIT);
  if (!text) return null;
  try {
    const limit = JSON.parse(text);
    return typeof limit?.id === 'string' ? { id: limit.id, name: String(limit.name || 'its tournament') } : null;
  } catch {
    return null;
  }
}

/**
 * Remembers (or forgets) the tournament `who`, just linked, is limited to.
 * @param {Me} who @param {string} [name] the tournament's name
 */
export function rememberLimit(who, name) {
  if (!who.only_tournament) {
    forget(LIMIT);
    return;
  }
  const known = limitOf();
  const kept = known?.id === who.only_tournament ? known.name : undefined;
  safeStorage(LIMIT, JSON.stringify({ id: who.only_tournament, name: name || kept || 'its tournament' }));
}

/** Signs this device out, then shows the page again as a visitor. */
export function signOutHere() {
  signOut()
    .catch((e) => { if (!(e instanceof ApiError)) throw e; })
    .finally(() => {
      forgetSession();
      location.reload();
    });
}

/**
 * The account page's address from the menu. A guest goes there to make an account (or
 * log in) and comes back where they were once it is done (`?next=`, account/next.js): a
 * player making one from their tournament's page lands on that page again.
 * @param {Me} who
 */
function accountHref(who) {
  if (who.username || /^\/(account|link)\/?$/.test(location.pathname)) return '/account';
  return `/account?next=${encodeURIComponent(location.pathname + location.search)}`;
}

/**
 * The header's menu of the person's pages: a `<details>` (it opens without script and
 * reads as a button), closed again by a tap elsewhere or Escape. A device limited to one
 * tournament has only that tournament and signing out.
 * @param {Me} who
 */
function accountMenu(who) {
  const signOutButton = h('li', {}, h('button', {
    type: 'button', class: 'link-button', 'data-sign-out': true, 'aria-label': `Sign out (${who.name})`,
    onclick: signOutHere,
  }, 'Sign out this device'));
  const only = who.only_tournament;
  const items = only
    ? [h('li', {}, h('a', { href: `/t/${encodeURIComponent(only)}`, 'data-limited-tournament': only }, limitOf()?.name || 'The tournament')), signOutButton]
    : [
      h('li', {}, h('a', { href: '/me', 'data-my-games': true }, 'Your games')),
      who.username ? h('li', {}, h('a', { href: `/@/${encodeURIComponent(who.username)}`, 'data-profile-link': true }, 'Your player page')) : null,
      h('li', {}, h('a', {
        href: accountHref(who), 'data-account-link': true,
        // The page's address may have changed since the header was drawn (a search kept in it).
        onclick: (/** @type {MouseEvent} */ ev) => { /** @type {HTMLAnchorElement} */ (ev.currentTarget).href = accountHref(who); },
      }, who.username ? 'Your account' : 'Your account (make one)')),
      signOutButton,
    ];
  const menu = h('details', { class: 'me-menu', 'data-account-menu': true },
    h('summary', { class: 'me-menu-button', 'aria-label': only ? 'Account menu: the tournament, sign out' : 'Account menu: your games, your account, sign out' }, 'Account'),
    h('ul', { class: 'me-menu-list' }, items));
  menu.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && menu.open) {
      menu.open = false;
      menu.querySelector('summary')?.focus();
    }
  });
  return menu;
}

// One listener for the page: a tap outside the open menu closes it.
document.addEventListener('click', (ev) => {
  const open = document.querySelector('details.me-menu[open]');
  if (open && ev.target instanceof Node && !open.contains(ev.target)) /** @type {HTMLDetailsElement} */ (open).open = false;
});

// A device signed out elsewhere (another of the person's devices, "Sign out" in its
// devices list) learns it at its next call: the header stops saying who is playing.
window.addEventListener(NO_SESSION, () => {
  if (!current && safeStorage(SESSION_FLAG) !== '1') return;
  forgetSession();
  renderHeader(null);
  toast('This device is signed out. Choose a name, or log in.', 'error');
});

// A socket closed because a session ended: this page's own new session (a new name, a
// log-in) or a sign-out from elsewhere. Asking who this device is tells which: a 401
// comes back as NO_SESSION above.
window.addEventListener(SOCKET_SIGNED_OUT, () => {
  fetchMe().catch(() => {});
});

/** @param {Me | null} who */
export function renderHeader(who) {
  const slot = document.getElementById('whoami');
  if (!slot) return;
  if (!who) {
    // Logging in comes back here (but from the account pages themselves).
    const here = location.pathname + location.search;
    const back = /^\/(account|link)\/?$/.test(location.pathname) ? '' : `?next=${encodeURIComponent(here)}`;
    replace(slot, chooseNameButton(),
      h('a', { class: 'header-link', href: `/account${back}`, 'data-log-in-link': true }, 'Log in'));
    return;
  }
  // An account's name leads to its player page; a guest has none.
  const name = who.username
    ? h('a', { class: 'whoami-profile', href: `/@/${encodeURIComponent(who.username)}`, title: `@${who.username}` }, h('strong', {}, who.name))
    : h('strong', {}, who.name);
  // A device a director linked is the player in one tournament only: it says so, and
  // offers no rename (the person's own devices do that).
  if (who.only_tournament) {
    replace(slot,
      h('span', { class: 'whoami-name', 'data-me': who.name, 'data-limited': who.only_tournament },
        h('span', { class: 'muted' }, 'Playing as '), name, h('span', { class: 'muted' }, ' · this tournament only')),
      accountMenu(who));
    return;
  }
  replace(slot,
    h('span', { class: 'whoami-name', 'data-me': who.name }, h('span', { class: 'muted' }, 'Playing as '), name),
    h('button', {
      type: 'button', class: 'link-button', 'data-change-name': true, 'aria-label': `Change your name (${who.name})`,
      onclick: () => {
        askName(RENAME_WHY, true, true)
          .then((renamed) => toast(`You are now ${renamed.name}`))
          .catch(() => {});
      },
    }, 'change'),
    accountMenu(who),
  );
}

/**
 * This device is now `who` (an account made or logged in to, a link code used): the page
 * remembers it has a named session, and the header says who.
 * @param {Me} who
 */
export function adoptSession(who) {
  safeStorage(SESSION_FLAG, '1');
  safeStorage('omweso.name', who.name);
  rememberLimit(who);
  current = who;
  renderHeader(who);
}

/** This device is signed out: the page forgets its session (the header is not redrawn). */
export function forgetSession() {
  forget(SESSION_FLAG);
  forget(LIMIT);
  current = null;
}

/**
 * Shows the name prompt in a dialog-like card over the page; resolves with the new
 * session's player.
 * @param {string} [why]
 * @param {boolean} [cancellable]
 * @param {boolean} [renaming] rename the session's person (`PATCH /api/me`: seats, sheets
 *   and the console stay theirs) rather than start a new guest session
 * @returns {Promise<Me>}
 */
export function askName(why, cancellable = false, renaming = false) {
  return new Promise((resolve, reject) => {
    const input = h('input', {
      id: 'name-input', name: 'name', type: 'text', maxlength: 32, required: true, autocomplete: 'nickname',
      value: (renaming && current?.name) || safeStorage('omweso.name') || '', placeholder: 'e.g. Kato',
    });
    const error = h('p', { class: 'form-error', role: 'alert' });
    // Focus goes back to what the visitor was doing (the button that asked), else to
    // the page's main content: not to <body>.
    const before = document.activeElement;
    const close = () => {
      overlay.remove();
      const back = before instanceof HTMLElement && before !== document.body && before.isConnected ? before : document.getElementById('app');
      back?.focus();
    };
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
          const who = renaming ? await rename(name) : await startSession(name);
          safeStorage('omweso.name', who.name);
          safeStorage(SESSION_FLAG, '1');
          // A new guest replaces a device's session, a limited one too.
          if (!renaming) forget(LIMIT);
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
      onkeydown: (/** @type {KeyboardEvent} */ ev) => {
        if (ev.key === 'Escape' && cancellable) {
          close();
          reject(new Error('cancelled'));
        }
      },
    }, form);
    document.body.append(overlay);
    input.focus();
  });
}

/**
 * Asks the server who the session is, but only when this browser made a session before:
 * without one `/api/me` answers 401, which the browser logs as an error in the console.
 * @returns {Promise<{who: Me, named: boolean} | null>}
 */
async function lookUp() {
  const flag = safeStorage(SESSION_FLAG);
  if (!flag) return null;
  let who = null;
  try {
    who = await fetchMe();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
  if (!who) {
    forget(SESSION_FLAG);
    return null;
  }
  rememberLimit(who);
  // An account always has a name it chose (the flag may say "guest" when the account was
  // made or linked outside these pages, by the API).
  const named = flag !== GUEST || Boolean(who.username) || Boolean(who.only_tournament);
  if (named && flag === GUEST) safeStorage(SESSION_FLAG, '1');
  return { who, named };
}

/**
 * The session's player under a chosen name; the name is asked first if there is none (a
 * visitor reading as a nameless guest is asked too: the name is for acting).
 * @param {string} [why]
 * @param {boolean} [cancellable] the visitor may decline (the promise then rejects with
 *   an Error "cancelled")
 * @returns {Promise<Me>}
 */
export async function ensureSession(why, cancellable = false) {
  if (current) return current;
  const found = await lookUp();
  if (found?.named) {
    current = found.who;
    renderHeader(current);
    return current;
  }
  return askName(why, cancellable);
}

/**
 * The session's player under a chosen name if there is one, without asking (null for a
 * visitor, with or without a nameless session).
 * @returns {Promise<Me | null>}
 */
export async function currentSession() {
  if (current) return current;
  const found = await lookUp();
  current = found?.named ? found.who : null;
  renderHeader(current);
  return current;
}

/**
 * For the pages a visitor reads without a name (the lobby, a tournament), whose reads
 * need a session: the named player if there is one; else null, after making sure this
 * browser holds a nameless guest session (made once, silently - the server allows a
 * session without a name). Never asks; a refusal (too many sessions from this address)
 * leaves the page to say that it cannot read.
 * @returns {Promise<Me | null>}
 */
export async function readerSession() {
  if (current) return current;
  const found = await lookUp();
  if (found) {
    current = found.named ? found.who : null;
    renderHeader(current);
    return current;
  }
  renderHeader(null);
  try {
    await startSession('');
    safeStorage(SESSION_FLAG, GUEST);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
  return null;
}

/**
 * Who this device is, without asking for a name or making a session: the person and
 * whether they chose a name (false: the nameless reading guest), or null for none.
 * @returns {Promise<{who: Me, named: boolean} | null>}
 */
export async function deviceSession() {
  if (current) return { who: current, named: true };
  const found = await lookUp();
  current = found?.named ? found.who : null;
  renderHeader(current);
  return found;
}
