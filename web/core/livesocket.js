// A socket that stays open, one for each live page: the lobby's and a tournament's feeds,
// and a game's socket, which also carries the player's requests (game/gamesession.js). The
// frames are JSON `{"t":..,"d":..}` (docs/protocol.md). This reconnects with jittered
// backoff, pings so that a dead connection is noticed, and asks the owner for the address
// at each attempt, so that a feed resumes after the last event it applied (`?v=`); the
// owner hears when a socket ends, to fail the requests it was still waiting on.

import { SOCKET_SIGNED_OUT } from './api.js';

/** The reason of the server's close when this device was signed out (socket/connection.rs). */
const SIGNED_OUT = 'the session was signed out';

const PING_EVERY_MS = 10000;
/** Nothing heard for this long (not even a pong): the connection is dead without knowing it. */
const SILENCE_MS = 25000;
const MAX_BACKOFF_MS = 10000;

/** @typedef {'connecting'|'open'|'reconnecting'|'closed'} LiveState */
/**
 * How a socket ended: `lost` (closed by the server or the network), `dropped` (by us: it
 * went silent, or its owner saw a gap in the events), `restarted` (by us: a fresh start).
 * `opened`: whether it had opened at all (a socket refused before opening never does).
 * @typedef {{why: 'lost'|'dropped'|'restarted', opened: boolean}} SocketEnd
 */

export class LiveSocket {
  /**
   * @param {() => string} path the path to open, e.g. `/ws/lobby`, asked at each attempt
   * @param {{onMessage: (msg: any) => void,
   *   onConnection?: (state: LiveState, info: {attempt: number, retryInMs: number}) => void,
   *   onEnd?: (end: SocketEnd) => void}} handlers
   */
  constructor(path, handlers) {
    this.path = path;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** Whether the socket in `ws` has opened. */
    this.opened = false;
    this.attempt = 0;
    /** @type {LiveState} */
    this.state = 'connecting';
    this.lastHeard = Date.now();
    this.stopped = false;
    /** @type {number | undefined} */
    this.retryTimer = undefined;
    /** @type {number | undefined} */
    this.pingTimer = undefined;
    this.onOnline = () => this.reconnectNow();
    this.onVisible = () => {
      if (!document.hidden) this.reconnectNow();
    };
    window.addEventListener('online', this.onOnline);
    document.addEventListener('visibilitychange', this.onVisible);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting', 0);
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}${this.path()}`);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.opened = false;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.opened = true;
      this.lastHeard = Date.now();
      clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.heartbeat(), PING_EVERY_MS);
    };
    ws.onmessage = (frame) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      if (this.state !== 'open') {
        // Connected once the server speaks (it may accept and close at once).
        this.attempt = 0;
        this.setState('open', 0);
      }
      let msg;
      try {
        msg = JSON.parse(String(frame.data));
      } catch {
        return;
      }
      this.handlers.onMessage(msg);
    };
    ws.onclose = (event) => {
      // A socket we let go of already (dropped, restarted, stopped) is not heard again.
      if (this.ws !== ws) return;
      // 1008: this device's session ended: signed out from another of the person's
      // devices, or replaced by this very page (a new name, a log-in). The header checks
      // which; the socket comes back as the session the cookie now holds.
      if (event.code === 1008 && event.reason === SIGNED_OUT) window.dispatchEvent(new Event(SOCKET_SIGNED_OUT));
      this.ws = null;
      clearInterval(this.pingTimer);
      this.handlers.onEnd?.({ why: 'lost', opened: this.opened });
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and reconnects.
    };
  }

  /** Is the socket open, so that `send` sends? */
  isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Sends one frame if the socket is open. @param {object} msg
   * @returns {boolean} whether it was sent
   */
  send(msg) {
    if (!this.ws || !this.isOpen()) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  heartbeat() {
    if (!this.isOpen()) return;
    if (Date.now() - this.lastHeard > SILENCE_MS) {
      this.drop();
      return;
    }
    this.send({ t: 'ping', d: {} });
  }

  /** Closes the socket and reconnects (a gap in the events: resume from the last one). */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.letGo(ws);
    this.handlers.onEnd?.({ why: 'dropped', opened: this.opened });
    this.scheduleReconnect();
  }

  /** Closes the socket and connects again at once, as at first (the attempts counted afresh). */
  restart() {
    const ws = this.ws;
    clearTimeout(this.retryTimer);
    if (ws) this.letGo(ws);
    this.handlers.onEnd?.({ why: 'restarted', opened: this.opened });
    this.attempt = 0;
    this.connect();
  }

  /** Forgets `ws` (its events are ignored from now on) and closes it. @param {WebSocket} ws */
  letGo(ws) {
    this.ws = null;
    clearInterval(this.pingTimer);
    try {
      ws.close();
    } catch {
      // already closed
    }
  }

  scheduleReconnect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt);
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.setState('reconnecting', delay);
    this.retryTimer = window.setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.stopped || this.ws) return;
    this.connect();
  }

  /** @param {LiveState} state @param {number} retryInMs */
  setState(state, retryInMs) {
    this.state = state;
    this.handlers.onConnection?.(state, { attempt: this.attempt, retryInMs });
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener('online', this.onOnline);
    document.removeEventListener('visibilitychange', this.onVisible);
    this.ws?.close();
    this.ws = null;
    this.setState('closed', 0);
  }
}
