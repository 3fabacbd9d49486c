// A socket that stays open: the page's feeds (the lobby, a tournament) are read-only
// sockets that carry JSON frames `{"t":..,"d":..}`; this reconnects with jittered backoff,
// pings so that a dead connection is noticed, and asks the owner for the address each
// time (a tournament resumes with `?v=`). The game's own socket (game.js) also carries
// requests and their answers, so it keeps its own.

const PING_EVERY_MS = 10000;
/** Nothing heard for this long (not even a pong): the connection is dead without knowing it. */
const SILENCE_MS = 25000;
const MAX_BACKOFF_MS = 10000;

/** @typedef {'connecting'|'open'|'reconnecting'|'closed'} LiveState */

export class LiveSocket {
  /**
   * @param {() => string} path the path to open, e.g. `/ws/lobby`, asked at each attempt
   * @param {{onMessage: (msg: any) => void,
   *   onConnection?: (state: LiveState, info: {attempt: number, retryInMs: number}) => void}} handlers
   */
  constructor(path, handlers) {
    this.path = path;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
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
    ws.onopen = () => {
      if (this.ws !== ws) return;
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
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and reconnects.
    };
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > SILENCE_MS) {
      this.drop();
      return;
    }
    this.ws.send(JSON.stringify({ t: 'ping', d: {} }));
  }

  /** Closes the socket and reconnects (a gap in the events: resume from the last one). */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    clearInterval(this.pingTimer);
    try {
      ws.close();
    } catch {
      // already closed
    }
    this.scheduleReconnect();
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
