// One game's live connection (docs/protocol.md): the game's socket on the shared live
// socket (core/livesocket.js: reconnection with backoff, the heartbeat), resuming with `?v=`
// after the last event applied, the player's requests answered by `ack` or `error`, and the
// snapshot kept current by applying each versioned event in order (model.js). No DOM here:
// the view (gameview.js) listens.

import { LiveSocket } from '../core/livesocket.js';
import { applyEvent } from './model.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('./model.js').GameEvent} GameEvent */
/** @typedef {import('./model.js').Side} Side */
/** @typedef {import('../core/livesocket.js').LiveState} ConnectionState */
/** @typedef {import('../core/livesocket.js').SocketEnd} SocketEnd */

export class ProtocolError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** What a request still waiting for its answer is told when its socket ends, by how it ended. */
const ENDED = {
  lost: 'the connection was lost before the server answered; try again',
  dropped: 'the connection was lost',
  restarted: 'the connection was restarted',
};

export class GameSession {
  /**
   * @param {string} gameId
   * @param {{
   *   onState?: (snap: Snapshot) => void,
   *   onEvent?: (ev: GameEvent, before: Snapshot, after: Snapshot, live: boolean) => void,
   *   onCrowd?: (snap: Snapshot) => void,
   *   onRatings?: (ratings: {s: object|null, n: object|null}) => void,
   *   onConnection?: (state: ConnectionState, info: {attempt: number, retryInMs: number}) => void,
   *   onServerError?: (code: string, message: string) => void,
   *   onRefused?: () => void,
   * }} handlers
   */
  constructor(gameId, handlers) {
    this.gameId = gameId;
    this.handlers = handlers;
    /** @type {Snapshot | null} */
    this.snap = null;
    /** Events received before the connection's first `crowd` are catch-up, not live. */
    this.catchingUp = true;
    /** Milliseconds to add to `Date.now()` to get the server's clock. */
    this.clockOffset = 0;
    this.nextId = 1;
    /** @type {Map<string, {resolve: () => void, reject: (e: Error) => void}>} */
    this.waiting = new Map();
    /** Connections in a row refused before opening. */
    this.failedUpgrades = 0;
    this.socket = new LiveSocket(
      // A fresh connection gets the snapshot; a reconnection resumes after the last event.
      () => `/ws/games/${encodeURIComponent(gameId)}${this.snap ? `?v=${this.snap.version}` : ''}`,
      {
        onMessage: (msg) => this.receive(msg),
        onConnection: (state, info) => {
          // Not open: the next socket's first events are its catch-up, until its `crowd`.
          if (state !== 'open') this.catchingUp = true;
          handlers.onConnection?.(state, info);
        },
        onEnd: (end) => this.ended(end),
      },
    );
  }

  /** The connection's state, as last told to `onConnection`. */
  get state() {
    return this.socket.state;
  }

  /** The server's clock now, as milliseconds since the Unix epoch. */
  serverNow() {
    return Date.now() + this.clockOffset;
  }

  /** Opens the socket (again): `?v=` resumes after the last event applied. */
  connect() {
    this.socket.connect();
  }

  /** Connects afresh (a new snapshot): after taking a seat, which binds at connection. */
  restart() {
    this.snap = null;
    this.socket.restart();
  }

  reconnectNow() {
    this.socket.reconnectNow();
  }

  stop() {
    this.socket.stop();
  }

  /** A socket ended: its requests will never be answered. @param {SocketEnd} end */
  ended({ why, opened }) {
    if (why === 'lost') {
      // Refused before it opened, three times in a row: the server is down, or it has no
      // such game.
      this.failedUpgrades = opened ? 0 : this.failedUpgrades + 1;
      if (this.failedUpgrades === 3) this.handlers.onRefused?.();
    }
    for (const [, w] of this.waiting) w.reject(new ProtocolError('disconnected', ENDED[why]));
    this.waiting.clear();
  }

  /** @param {any} msg */
  receive(msg) {
    const { t, d } = msg;
    switch (t) {
      case 'state':
        this.snap = /** @type {Snapshot} */ ({ legal: {}, pending_results: null, ...d, version: msg.v ?? d.version });
        // A relayed game is played on a wooden board: its own players watch it here like
        // anyone (the server refuses their moves).
        if (this.snap.relayed) this.snap.you = null;
        this.handlers.onState?.(this.snap);
        return;
      case 'crowd':
        this.catchingUp = false;
        if (this.snap) {
          const seats = { ...this.snap.seats };
          for (const side of /** @type {Side[]} */ (['s', 'n'])) {
            const seat = seats[side];
            if (seat) seats[side] = { ...seat, connected: Boolean(d.connected?.[side]) };
          }
          this.snap = { ...this.snap, seats, spectators: d.spectators };
          this.handlers.onCrowd?.(this.snap);
        }
        return;
      case 'ack': {
        const w = this.waiting.get(String(d.id));
        if (w) {
          this.waiting.delete(String(d.id));
          w.resolve();
        }
        return;
      }
      case 'error': {
        const w = d.id !== undefined ? this.waiting.get(String(d.id)) : undefined;
        if (w) {
          this.waiting.delete(String(d.id));
          w.reject(new ProtocolError(d.code, d.message));
        } else {
          this.handlers.onServerError?.(d.code, d.message);
        }
        return;
      }
      case 'pong':
        return;
      case 'ratings':
        // A rated game over, rated (again) after its end: a tournament's sheet made or
        // corrected (docs/protocol.md#ratings-addition).
        this.handlers.onRatings?.(d);
        return;
      default:
        if (typeof msg.v === 'number') this.versioned(/** @type {GameEvent} */ (msg));
    }
  }

  /** @param {GameEvent} ev */
  versioned(ev) {
    const before = this.snap;
    if (!before) return; // the state comes first on a fresh connection
    if (ev.v <= before.version) return; // seen already
    if (ev.v > before.version + 1) {
      // A gap: resume from the last event applied.
      this.socket.drop();
      return;
    }
    const live = !this.catchingUp;
    if (live) this.learnClock(ev);
    const after = applyEvent(before, ev);
    this.snap = after;
    this.handlers.onEvent?.(ev, before, after, live);
  }

  /**
   * A live event that starts a referee count was sent just now: its deadline is
   * `referee_seconds` (plus at most 1 s of latency allowance) from now on the server.
   * @param {GameEvent} ev
   */
  learnClock(ev) {
    const r = this.snap?.time_control?.referee_seconds;
    if (r == null || (ev.t !== 'played' && ev.t !== 'started')) return;
    const deadline = ev.d.clock?.referee_deadline;
    if (deadline == null) return;
    this.clockOffset = deadline - r * 1000 - Date.now();
  }

  /**
   * Sends a client message; resolves on `ack`, rejects with a `ProtocolError`.
   * @param {'move'|'decide'|'arrange'|'resign'|'impasse'|'impasse_answer'} t
   * @param {object} d
   * @returns {Promise<void>}
   */
  send(t, d) {
    return new Promise((resolve, reject) => {
      if (!this.socket.isOpen()) {
        reject(new ProtocolError('disconnected', 'not connected to the server; wait for the connection to come back'));
        return;
      }
      const id = `c${this.nextId++}`;
      this.waiting.set(id, { resolve, reject });
      this.socket.send({ t, d, id });
    });
  }
}
