// A protocol client in Node, for the tests that need players besides the browser's: sessions
// and calls over HTTP (docs/protocol.md "HTTP"), and RandomMover, a player on a game's socket
// that plays uniformly random whole legal moves as the server lists them (`legal`).
//
// The sockets use the `ws` package: Node 20 has no WebSocket without a flag, and `ws` answers
// the server's pings by itself.

import WebSocket from 'ws';

/** A seeded random number generator (mulberry32): numbers in [0, 1). @param {number} seed */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A refusal from the server, with its status and code. */
export class CallError extends Error {
  /** @param {string} message @param {number} status @param {string} code */
  constructor(message, status, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * An HTTP call as a session (bearer token). Resolves with the parsed JSON body (or the text
 * for a CSV or TRF export); throws CallError on any status >= 400.
 * @param {string} baseUrl @param {string | null} token @param {string} method @param {string} path
 * @param {any} [body]
 * @returns {Promise<any>}
 */
export async function call(baseUrl, token, method, path, body) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  // A state change must say it is JSON, with a body or not.
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  let lastError;
  // A connection reset on a machine under load is retried once for reads; changes are not
  // retried (they may have been made).
  for (let attempt = 0; attempt < (method === 'GET' ? 3 : 1); attempt++) {
    let response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method, headers, body: body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(body),
        signal: AbortSignal.timeout(30000),
      });
    } catch (e) {
      lastError = e;
      continue;
    }
    const text = await response.text();
    const type = response.headers.get('content-type') || '';
    if (response.status >= 400) {
      let code = '';
      try {
        code = JSON.parse(text).error.code;
      } catch {
        code = '';
      }
      throw new CallError(`${method} ${path} -> ${response.status}: ${text.slice(0, 400)}`, response.status, code);
    }
    return type.includes('json') ? JSON.parse(text) : text;
  }
  throw lastError;
}

/**
 * A new guest session.
 * @param {string} baseUrl @param {string} name
 * @returns {Promise<{token: string, player_id: string, name: string}>}
 */
export function session(baseUrl, name) {
  return call(baseUrl, null, 'POST', '/api/session', { name });
}

/** The ws:// address of a path on the server. @param {string} baseUrl @param {string} path */
export function wsUrl(baseUrl, path) {
  return baseUrl.replace(/^http/, 'ws') + path;
}

/**
 * A player on a game's socket playing random whole legal moves: whenever its seat may start
 * a turn (the snapshot's `legal` and each event's `legal`) it waits a think time and sends
 * one of `legal[you].moves` chosen uniformly; it answers a decision for it with a random
 * option; a refused move is chosen again from the latest list. It records every (version,
 * position) it saw, and stops at `end` (or `stop()`).
 */
export class RandomMover {
  /**
   * @param {{baseUrl: string, gameId: string, token: string, seed?: number,
   *   thinkMs?: [number, number], label?: string, maxMoves?: number}} options
   *   `thinkMs`: the think time is uniform in [min, max] ms (default 300-600);
   *   `maxMoves`: stop acting after this many acknowledged actions (default: no limit)
   */
  constructor(options) {
    this.baseUrl = options.baseUrl;
    this.gameId = options.gameId;
    this.token = options.token;
    this.random = rng(options.seed ?? 1);
    this.thinkMs = options.thinkMs || [300, 600];
    this.label = options.label || options.gameId.slice(-6);
    this.maxMoves = options.maxMoves ?? Infinity;
    /** @type {string | null} the seat, from the snapshot */
    this.you = null;
    this.version = 0;
    /** @type {string | null} */
    this.position = null;
    this.status = '';
    /** @type {Record<string, {moves: string[], starts_only: boolean}>} */
    this.legal = {};
    /** @type {string[] | null} options of a decision waiting for this seat */
    this.decision = null;
    /** @type {any} */
    this.outcome = null;
    /** @type {[number, string | null][]} every (version, position) seen, in order */
    this.seen = [];
    /** @type {number[]} the versions of the `played` events seen */
    this.playedVersions = [];
    /** @type {string | null} the last whole move played (as a board's `last_move`) */
    this.lastMove = null;
    /** Actions sent and acknowledged. */
    this.moves = 0;
    /** @type {{code: string, message: string, version: number}[]} refusals of this mover's actions */
    this.refusals = [];
    /** @type {string[]} socket trouble: unexpected closes, unreadable frames */
    this.problems = [];
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    /** The version the last action was chosen at (no second action from the same list). */
    this.actedAt = -1;
    /** An action is on its way (sent, no ack or error yet). */
    this.inFlight = false;
    this.nextId = 1;
    this.stopped = false;
    this.reconnects = 0;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {Promise<void>} resolves when the game ends or the mover is stopped */
    this.done = new Promise((resolve) => { this.finish = resolve; });
    /** @type {Promise<void>} resolves on the first snapshot */
    this.ready = new Promise((resolve) => { this.onReady = resolve; });
  }

  /** Connects (resuming after the last version seen when reconnecting). */
  start() {
    const query = `token=${encodeURIComponent(this.token)}${this.version ? `&v=${this.version}` : ''}`;
    const ws = new WebSocket(wsUrl(this.baseUrl, `/ws/games/${this.gameId}?${query}`));
    this.ws = ws;
    ws.on('message', (data) => {
      let msg;
      try {
        msg = JSON.parse(String(data));
      } catch {
        this.problems.push(`${this.label}: a frame that is not JSON: ${String(data).slice(0, 200)}`);
        return;
      }
      try {
        this.onMessage(msg);
      } catch (e) {
        this.problems.push(`${this.label}: ${e instanceof Error ? e.stack : e}`);
      }
    });
    ws.on('error', (e) => {
      if (!this.stopped) this.problems.push(`${this.label}: socket error ${e.message}`);
    });
    ws.on('close', (code, reason) => {
      if (this.stopped || this.status === 'finished' || this.status === 'annulled') return;
      // The server closed it (a restart, a slow reader): resume after the last version, a
      // few times (a server that is gone must not keep the test process alive).
      this.problems.push(`${this.label}: socket closed ${code} ${reason} at v${this.version}`);
      this.clearTimer();
      this.inFlight = false;
      this.reconnects += 1;
      if (this.reconnects > 5) {
        this.stop();
        return;
      }
      setTimeout(() => { if (!this.stopped) this.start(); }, 500);
    });
    return this;
  }

  /** Stops playing and closes the socket. */
  stop() {
    this.stopped = true;
    this.clearTimer();
    try {
      this.ws?.close(1000);
    } catch {
      // already closed
    }
    this.finish?.();
  }

  clearTimer() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** @param {number} v @param {string | null} position */
  record(v, position) {
    this.version = v;
    if (position !== undefined) this.position = position;
    this.seen.push([v, this.position]);
  }

  /** @param {any} msg */
  onMessage(msg) {
    const d = msg.d || {};
    switch (msg.t) {
      case 'state': {
        this.you = d.you ?? null;
        this.status = d.status;
        this.legal = d.legal || {};
        this.outcome = d.outcome ?? null;
        this.decision = d.pending && d.you && d.to_move === d.you && d.status === 'playing' ? d.pending : null;
        this.lastMove = d.history?.length ? d.history[d.history.length - 1].move ?? null : null;
        this.record(msg.v ?? d.version, d.position ?? null);
        this.onReady?.();
        break;
      }
      case 'started':
        this.status = 'playing';
        this.legal = d.legal || {};
        this.record(msg.v, d.position);
        break;
      case 'played':
        this.legal = d.pending ? {} : d.legal || {};
        this.decision = null;
        if (!d.pending) this.lastMove = d.move;
        this.playedVersions.push(msg.v);
        this.record(msg.v, d.position);
        break;
      case 'decision':
        this.legal = {};
        this.decision = d.by === this.you ? d.options : null;
        this.record(msg.v, this.position);
        break;
      case 'steal':
        this.legal = d.legal || {};
        this.record(msg.v, this.position);
        break;
      case 'end':
        this.legal = {};
        this.decision = null;
        this.outcome = d.outcome;
        this.status = d.outcome?.result === 'annulled' ? 'annulled' : 'finished';
        this.record(msg.v, this.position);
        this.stop();
        return;
      case 'ack':
        this.inFlight = false;
        this.moves += 1;
        break;
      case 'error':
        // A refusal of an action of ours (its id) or of the socket itself.
        this.inFlight = false;
        this.refusals.push({ code: d.code, message: d.message, version: this.version });
        // Choose again from the latest list (the game may have moved meanwhile).
        this.actedAt = -1;
        break;
      case 'crowd':
      case 'pong':
        return;
      default:
        // joined, arranged, and anything new: versioned events change the version.
        if (typeof msg.v === 'number') this.record(msg.v, this.position);
    }
    this.schedule();
  }

  /** What this seat may do now: a decision's options, a list of moves, or nothing. */
  choices() {
    if (this.status !== 'playing' || !this.you) return null;
    if (this.decision && this.decision.length) return { t: 'decide', options: this.decision };
    const mine = this.legal[this.you];
    if (mine && mine.moves.length) return { t: 'move', options: mine.moves };
    return null;
  }

  /** Plans the next action after a think time, unless one is planned or on its way. */
  schedule() {
    if (this.stopped || this.timer || this.inFlight || this.moves >= this.maxMoves) return;
    if (this.actedAt === this.version || !this.choices()) return;
    const [min, max] = this.thinkMs;
    const wait = min + this.random() * (max - min);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.act();
    }, wait);
  }

  act() {
    if (this.stopped || this.inFlight) return;
    const choice = this.choices();
    if (!choice || this.actedAt === this.version) return;
    const pick = choice.options[Math.floor(this.random() * choice.options.length)];
    const id = this.nextId++;
    this.actedAt = this.version;
    this.inFlight = true;
    const msg = choice.t === 'move' ? { t: 'move', d: { move: pick }, id } : { t: 'decide', d: { choice: pick }, id };
    try {
      this.ws?.send(JSON.stringify(msg));
    } catch (e) {
      this.inFlight = false;
      this.problems.push(`${this.label}: send failed: ${e instanceof Error ? e.message : e}`);
    }
  }

  /** Resigns now (through the socket); resolves when the game has ended. */
  async resign() {
    this.clearTimer();
    this.inFlight = true;
    this.ws?.send(JSON.stringify({ t: 'resign', d: {}, id: this.nextId++ }));
    await this.done;
  }
}

/**
 * Waits for a condition, checking every `every` ms; throws with `what` after `timeout` ms.
 * @template T
 * @param {() => T | Promise<T>} check
 * @param {string} what
 * @param {{timeout?: number, every?: number}} [options]
 * @returns {Promise<T>}
 */
export async function waitFor(check, what, options = {}) {
  const timeout = options.timeout ?? 30000;
  const every = options.every ?? 100;
  const until = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
