// The HTTP API (docs/protocol.md): JSON in and out, refusals as `ApiError`. The session is
// the HttpOnly cookie the server sets, sent by the browser with every same-origin request.

/** The window event a `401 no_session` answer fires. */
export const NO_SESSION = 'omweso:no-session';
/** A socket was closed because its device's session ended (or was replaced by this page). */
export const SOCKET_SIGNED_OUT = 'omweso:socket-signed-out';

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * Calls the API; resolves with the parsed body, or rejects with an `ApiError` (status 0
 * for a network failure).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {RequestInit} */
  const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'network', 'the server cannot be reached; check your connection');
  }
  const text = await response.text();
  /** @type {any} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data && data.error;
    // This device's session is gone (signed out from another device, or expired): the
    // header (core/session.js) hears it and says so, whichever call found out.
    if (response.status === 401 && err?.code === 'no_session') window.dispatchEvent(new Event(NO_SESSION));
    throw new ApiError(response.status, (err && err.code) || `http_${response.status}`, (err && err.message) || text || response.statusText);
  }
  return data;
}

/**
 * The session's person: `username` for an account (absent for a guest), `device_id` this
 * device, `only_tournament` the tournament a device a director linked is the person in,
 * only (docs/protocol.md, `GET /api/me`).
 * @typedef {{player_id: string, name: string, username?: string | null, device_id?: string,
 *   only_tournament?: string | null}} Me
 */

/**
 * The session's player, or null when there is no session yet.
 * @returns {Promise<Me | null>}
 */
export async function me() {
  try {
    return await api('GET', '/api/me');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

/**
 * Signs the session out: its token no longer works, its sockets close, the cookie goes.
 * @returns {Promise<void>}
 */
export async function signOut() {
  await api('DELETE', '/api/session');
}

/**
 * Starts a guest session under `name` (sets the cookie).
 * @param {string} name
 * @returns {Promise<Me>}
 */
export async function startSession(name) {
  const answer = await api('POST', '/api/session', name ? { name } : {});
  return { player_id: answer.player_id, name: answer.name };
}

// Persons, accounts and devices (docs/protocol.md#persons-accounts-and-devices-addition). Each call
// that signs this device in sets the session cookie; the answer's token is not kept (the
// cookie is the session), so only the person is returned.

/**
 * What a signing-in answer says, without its token.
 * @param {any} answer
 * @returns {Me}
 */
function person(answer) {
  return {
    player_id: answer.player_id, name: answer.name, username: answer.username ?? null, device_id: answer.device_id,
    only_tournament: answer.only_tournament ?? null,
  };
}

/**
 * Renames the person on every device (their seats, sheets and console stay theirs).
 * @param {string} name
 * @returns {Promise<Me>}
 */
export async function rename(name) {
  return person(await api('PATCH', '/api/me', { name }));
}

/**
 * Makes an account; made as a guest, the guest becomes it (same person). The recovery codes
 * come this once.
 * @param {string} username @param {string} password
 * @returns {Promise<{who: Me, recoveryCodes: string[]}>}
 */
export async function makeAccount(username, password) {
  const answer = await api('POST', '/api/account', { username, password });
  return { who: person(answer), recoveryCodes: answer.recovery_codes };
}

/**
 * Logs this device in to an account (its session so far is signed out).
 * @param {string} username @param {string} password
 * @returns {Promise<Me>}
 */
export async function logIn(username, password) {
  return person(await api('POST', '/api/login', { username, password }));
}

/**
 * Sets a new password with one recovery code and logs this device in; every other device
 * of the account is signed out.
 * @param {string} username @param {string} code @param {string} password
 * @returns {Promise<Me>}
 */
export async function recover(username, code, password) {
  return person(await api('POST', '/api/login/recovery', { username, code, password }));
}

/**
 * Changes the account's password; its other devices are signed out.
 * @param {string} current @param {string} password
 */
export async function changePassword(current, password) {
  await api('PUT', '/api/account/password', { current, password });
}

/**
 * A new set of recovery codes (the old ones stop working).
 * @param {string} password
 * @returns {Promise<string[]>}
 */
export async function renewRecoveryCodes(password) {
  return (await api('POST', '/api/account/recovery-codes', { password })).recovery_codes;
}

/**
 * One of the person's devices.
 * @typedef {{id: string, label: string, created_at_ms: number, last_seen_ms: number, current: boolean,
 *   only_tournament?: string}} Device
 */

/**
 * The person's devices, the most recently used first.
 * @returns {Promise<Device[]>}
 */
export async function devices() {
  return (await api('GET', '/api/devices')).devices;
}

/** Signs one of the person's devices out. @param {string} id */
export async function signOutDevice(id) {
  await api('DELETE', `/api/devices/${encodeURIComponent(id)}`);
}

/** Signs out every device of the person but this one. */
export async function signOutOtherDevices() {
  await api('DELETE', '/api/devices');
}

/**
 * A one-time code that makes another device this person.
 * @typedef {{code: string, expires_at_ms: number, url: string, qr_svg: string}} LinkCode
 */

/** @returns {Promise<LinkCode>} */
export async function makeLinkCode() {
  return api('POST', '/api/link-codes');
}

/**
 * Where a tournament's player is, as a device a director linked for them opens it.
 * @typedef {{kind: 'game'|'sheet'|'tournament', path: string, tournament_id: string,
 *   tournament_name: string, round?: number, table?: number}} PlayerPlace
 * @typedef {{tournament_id: string, tournament_name: string, round: number, table: number,
 *   path: string}} RelayPlace
 */

/**
 * Uses a code typed at `/link`: a link code makes this device its person (its session so
 * far is signed out; a director's code says where the player is now); a relay invite's
 * code is only found, with the relay's page that claims it.
 * @param {string} code as typed
 * @returns {Promise<{kind: 'device', who: Me, place: PlayerPlace | null} | {kind: 'relay', relay: RelayPlace}>}
 */
export async function useLinkCode(code) {
  const answer = await api('POST', '/api/link', { code });
  if (answer.kind === 'relay') return { kind: 'relay', relay: answer };
  return { kind: 'device', who: person(answer), place: answer.place ?? null };
}

/**
 * A person's page: their games and tournaments, the newest first.
 * @typedef {{id: string, ruleset: string, status: string, seat: 's'|'n'|null,
 *   opponent: string|null, result: 'won'|'lost'|'drawn'|'none', created_at_ms: number}} PlayerGame
 * @typedef {{id: string, name: string, ruleset: string, status: string, role: string,
 *   created_at_ms: number}} PlayerTournament
 * @typedef {{player_id: string, name: string, username?: string|null, member_since_ms: number,
 *   games: PlayerGame[], tournaments: PlayerTournament[]}} PlayerPage
 */

/**
 * An account's page, for anyone.
 * @param {string} username
 * @returns {Promise<PlayerPage>}
 */
export async function playerPage(username) {
  return api('GET', `/api/players/${encodeURIComponent(username)}`);
}

/**
 * The asking person's own page (a guest's too).
 * @returns {Promise<PlayerPage>}
 */
export async function myGames() {
  return api('GET', '/api/me/games');
}

/**
 * The account as its page needs it, and whether the server sends mail.
 * @typedef {{username?: string, email?: string, email_verified: boolean,
 *   email_enabled: boolean, member_since_ms?: number}} AccountInfo
 */

/** @returns {Promise<AccountInfo>} */
export async function accountInfo() {
  return api('GET', '/api/account');
}

/**
 * Gives the account an address (unverified until the link mailed to it is opened).
 * @param {string} email @param {string} password
 */
export async function setEmail(email, password) {
  await api('PUT', '/api/account/email', { email, password });
}

/** Removes the account's address. */
export async function removeEmail() {
  await api('DELETE', '/api/account/email');
}

/** Confirms an address with the code of the link mailed to it. @param {string} code */
export async function verifyEmail(code) {
  await api('POST', '/api/account/email/verify', { code });
}

/**
 * Asks for a reset link mailed to the account's verified address (the answer never says
 * whether one was sent). @param {string} username
 */
export async function askEmailReset(username) {
  await api('POST', '/api/login/email-reset', { username });
}

/**
 * Sets a new password with a mailed reset link's code and logs this device in; every other
 * device of the account is signed out.
 * @param {string} code @param {string} password
 * @returns {Promise<Me>}
 */
export async function confirmEmailReset(code, password) {
  return person(await api('POST', '/api/login/email-reset/confirm', { code, password }));
}
