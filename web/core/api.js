// The HTTP API (docs/protocol.md): JSON in and out, refusals as `ApiError`. The session is
// the HttpOnly cookie the server sets, sent by the browser with every same-origin request.

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
    throw new ApiError(response.status, (err && err.code) || `http_${response.status}`, (err && err.message) || text || response.statusText);
  }
  return data;
}

/** @typedef {{player_id: string, name: string}} Me */

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
