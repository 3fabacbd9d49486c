// Tournaments over HTTP, for the tests: a director creates one, players join, the director
// pairs and starts rounds (docs/protocol.md "Tournaments"). Every call is the real server's.

import { call, session } from './protocol.js';

/**
 * @typedef {{token: string, player_id: string, name: string}} Session
 */

/**
 * A tournament created by a new director session.
 * @param {string} baseUrl
 * @param {Record<string, any>} [settings] the body of POST /api/tournaments (a name is given)
 * @param {string} [directorName]
 * @returns {Promise<{id: string, url: string, director: Session}>}
 */
export async function createTournament(baseUrl, settings = {}, directorName = 'Director') {
  const director = await session(baseUrl, directorName);
  // An Omweso tournament starts from the free setup by default; the tests that are not
  // about arranging start from the outer preset unless they say otherwise.
  const omweso = !settings.ruleset || settings.ruleset === 'omweso';
  const setup = omweso && !('setup' in settings) ? { setup: 'outer' } : {};
  const created = await call(baseUrl, director.token, 'POST', '/api/tournaments', { name: 'Test Open', ...setup, ...settings });
  return { id: created.tournament_id, url: `${baseUrl}${created.url}`, director };
}

/**
 * `count` new player sessions, named `prefix-1`..., each joined to the tournament, in order
 * (the initial order is the order of joining). A few at a time: the server is shared.
 * @param {string} baseUrl @param {string} id @param {number} count
 * @param {{prefix?: string, names?: string[], parallel?: number}} [options]
 * @returns {Promise<Session[]>}
 */
export async function joinPlayers(baseUrl, id, count, options = {}) {
  const names = options.names || Array.from({ length: count }, (_, i) => `${options.prefix || 'Player'}-${i + 1}`);
  /** @type {Session[]} */
  const sessions = await inBatches(names, options.parallel || 8, (name) => session(baseUrl, name));
  // Joined one after another so that the initial order is the list's.
  for (const s of sessions) await call(baseUrl, s.token, 'POST', `/api/tournaments/${id}/join`);
  return sessions;
}

/**
 * Pairs the next round and starts it (director); resolves with the started round.
 * @param {string} baseUrl @param {string} id @param {string} directorToken
 */
export async function pairAndStart(baseUrl, id, directorToken) {
  const round = await call(baseUrl, directorToken, 'POST', `/api/tournaments/${id}/rounds`);
  return call(baseUrl, directorToken, 'POST', `/api/tournaments/${id}/rounds/${round.number}/start`);
}

/** The tournament's snapshot, as a session sees it. @param {string} baseUrl @param {string} id @param {string} token */
export function snapshot(baseUrl, id, token) {
  return call(baseUrl, token, 'GET', `/api/tournaments/${id}`);
}

/**
 * Runs `fn` over the items, at most `parallel` at once, keeping their order.
 * @template T, R
 * @param {T[]} items @param {number} parallel @param {(item: T, index: number) => Promise<R>} fn
 * @returns {Promise<R[]>}
 */
export async function inBatches(items, parallel, fn) {
  /** @type {R[]} */
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return out;
}

/**
 * Makes a browser context that session: its cookie, and the flag the page keeps once it has
 * a session (without it the page asks for a name instead of asking the server who it is).
 * @param {import('playwright-core').BrowserContext} context @param {string} baseUrl @param {Session} s
 */
export async function signInContext(context, baseUrl, s) {
  await context.addCookies([{ name: 'omweso_session', value: s.token, url: baseUrl }]);
  await context.addInitScript((name) => {
    try {
      localStorage.setItem('omweso.session', '1');
      localStorage.setItem('omweso.name', name);
    } catch {
      // storage blocked: the page asks for a name
    }
  }, s.name);
}
