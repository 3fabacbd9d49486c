// One game's connection and state: the WebSocket (docs/protocol.md), reconnection with
// backoff and `?v=` resumption, and the game model kept up to date by applying each
// versioned event in order. No DOM here: the view (gameview.js) listens.

import { ownerOf } from '../board/notation.js';

/** @typedef {import('../board/notation.js').Side} Side */
/** @typedef {import('../board/notation.js').Lap} Lap */
/** @typedef {import('../board/notation.js').Outcome} Outcome */
/** @typedef {{referee_deadline: number|null, steal_open: boolean, move_deadline: number|null, arrange_deadline?: number|null}} Clock */
/** @typedef {{name: string, connected: boolean, computer?: {level: number}}} SeatView */
/** @typedef {{by: Side, move: string, stolen: boolean, position?: string}} HistoryEntry */
/**
 * @typedef {{referee_seconds: number|null, move_limit_seconds: number|null, sowing_pace: number,
 *   akakyala: boolean, abandon_seconds: number, disconnect_grace_seconds: number, arrange_seconds?: number|null}} TimeControl
 */
/**
 * What a start does, as the server works it out: up to the end of the turn, or to its
 * first decision (`decision` then holds the options, and the turn stops there). `ends_at`:
 * the last lap's pit when the turn ended with an `end` lap.
 * @typedef {{start: string, laps: number, seeds: number, captured: number,
 *   ends_at: string|null, decision: string[]|null, outcome: Outcome|null}} StartResult
 */
/**
 * A side that may start a turn now: every whole legal move (`starts_only`: only the starts
 * could be listed), and each start's result.
 * @typedef {{moves: string[], starts_only: boolean, starts: StartResult[]}} LegalSide
 */
/**
 * Who may start a turn now, and with what: both sides in Mweiso's opening; the victim and
 * the thief while the referee's steal is open; nobody (`{}`) while a decision waits or
 * once the game is over.
 * @typedef {{s?: LegalSide, n?: LegalSide}} Legal
 */
/**
 * What an answer to the waiting decision does: its laps (the first ones only past the
 * server's lap limit, `laps_omitted` counting the rest), the position after it, the next
 * decision's options if another follows, and the outcome if the game ends.
 * @typedef {{choice: string, laps: Lap[], laps_omitted?: LapsOmitted, position: string,
 *   decision: string[]|null, outcome: Outcome|null}} OptionResult
 */
/** @typedef {{laps: number, seeds: number, captured: number}} LapsOmitted */
/**
 * Oware's impasse: the proposal to stop standing (`split` absent), or the one accepted
 * that ended the game, with the seeds each player took of those left.
 * @typedef {{proposed_by: Side, split?: {s: number, n: number}}} Impasse
 */
/**
 * The game snapshot (`state`, `GET /api/games/{id}`), kept current by the events.
 * @typedef {{game_id: string, ruleset: import('../board/notation.js').Ruleset, setup: string,
 *   time_control: TimeControl, status: 'setup'|'playing'|'finished'|'annulled',
 *   position: string|null, to_move: Side|null, opening: Side[],
 *   seats: {s: SeatView|null, n: SeatView|null}, you: Side|null, legal_moves: string[],
 *   pending: string[]|null, pending_move: string|null, clock: Clock, history: HistoryEntry[],
 *   legal: Legal, pending_results: OptionResult[]|null,
 *   outcome: Outcome|null, spectators: number, version: number,
 *   arrangements: {s: number[]|null, n: number[]|null}, impasse?: Impasse|null}} Snapshot
 */
/**
 * A versioned event as received.
 * @typedef {{t: 'joined', v: number, d: {seat: Side, name: string}}
 *   | {t: 'started', v: number, d: {to_move: Side|null, position: string, clock: Clock, legal: Legal}}
 *   | {t: 'arranged', v: number, d: {by: Side, pits: number[], late?: boolean, clock?: Clock}}
 *   | {t: 'played', v: number, d: {by: Side, move: string, stolen: boolean, laps: Lap[], laps_omitted?: LapsOmitted, position: string, outcome: Outcome|null, pending: boolean, display_ms?: number, clock?: Clock, legal: Legal}}
 *   | {t: 'decision', v: number, d: {by: Side, options: string[], results: OptionResult[], clock?: Clock}}
 *   | {t: 'count', v: number, d: {clock: Clock}}
 *   | {t: 'steal', v: number, d: {victim: Side, clock?: Clock, legal: Legal}}
 *   | {t: 'impasse_proposed', v: number, d: {by: Side}}
 *   | {t: 'impasse_declined', v: number, d: {by: Side}}
 *   | {t: 'end', v: number, d: {outcome: Outcome, impasse?: Impasse, position?: string}}} GameEvent
 */
/** @typedef {'connecting'|'open'|'reconnecting'|'closed'} ConnectionState */

export class ProtocolError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const NO_CLOCK = { referee_deadline: null, steal_open: false, move_deadline: null };
const PING_EVERY_MS = 10000;
const SILENCE_MS = 25000;
const MAX_BACKOFF_MS = 10000;

/**
 * The side field of a position string decides who moves: `s`/`n`; `o` both (Mweiso's
 * opening), `os`/`on` one of them still owes it. Oware: `s`/`n`.
 * @param {string} position
 * @returns {{toMove: Side|null, opening: Side[]}}
 */
export function sideField(position) {
  const field = position.trim().split(/\s+/)[1] || '';
  if (field === 'o') return { toMove: null, opening: ['s', 'n'] };
  if (field === 'os' || field === 'on') {
    const side = /** @type {Side} */ (field[1]);
    return { toMove: side, opening: [side] };
  }
  return { toMove: field === 'n' ? 'n' : 's', opening: [] };
}

/**
 * Applies a versioned event to a snapshot, giving the new snapshot (the old one is not
 * changed). Pure, so tests can replay a game's events. The legal moves and the decision's
 * results come with the events (`legal`, `results`): nothing is worked out here.
 * @param {Snapshot} snap
 * @param {GameEvent} ev
 * @returns {Snapshot}
 */
export function applyEvent(snap, ev) {
  /** @type {Snapshot} */
  const next = {
    ...snap,
    seats: { ...snap.seats },
    history: snap.history,
    arrangements: { ...snap.arrangements },
    version: ev.v,
    legal_moves: [],
  };
  switch (ev.t) {
    case 'joined':
      next.seats[ev.d.seat] = { name: ev.d.name, connected: snap.seats[ev.d.seat]?.connected ?? false };
      break;
    case 'arranged':
      next.arrangements[ev.d.by] = ev.d.pits;
      if (ev.d.clock) next.clock = ev.d.clock;
      break;
    case 'started': {
      next.status = 'playing';
      next.position = ev.d.position;
      const { toMove, opening } = sideField(ev.d.position);
      next.to_move = ev.d.to_move ?? toMove;
      next.opening = opening;
      next.clock = ev.d.clock || NO_CLOCK;
      next.pending = null;
      next.pending_results = null;
      next.pending_move = null;
      next.legal = ev.d.legal || {};
      break;
    }
    case 'played': {
      next.position = ev.d.position;
      next.clock = ev.d.clock || NO_CLOCK;
      next.pending_results = null;
      // Nobody may start a turn while the decision that follows waits.
      next.legal = ev.d.pending ? {} : ev.d.legal || {};
      if (ev.d.pending) {
        next.pending_move = ev.d.move;
        next.to_move = ev.d.by;
        next.pending = null; // the decision event brings the options
      } else {
        next.pending_move = null;
        next.pending = null;
        next.history = [...snap.history, { by: ev.d.by, move: ev.d.move, stolen: ev.d.stolen, position: ev.d.position }];
        // The proposer's own next turn ends their proposal to stop.
        if (snap.impasse && !snap.impasse.split && snap.impasse.proposed_by === ev.d.by) next.impasse = null;
        const { toMove, opening } = sideField(ev.d.position);
        next.to_move = toMove;
        next.opening = opening;
      }
      if (ev.d.outcome) next.outcome = ev.d.outcome;
      break;
    }
    case 'decision':
      next.pending = ev.d.options;
      next.pending_results = ev.d.results || null;
      next.to_move = ev.d.by;
      if (ev.d.clock) next.clock = ev.d.clock;
      break;
    case 'count':
      // A count starts: the first turn's, both players being at the table, or the
      // arrangement limit of the player now arranging, who has come to it.
      next.clock = ev.d.clock;
      break;
    case 'steal':
      next.clock = ev.d.clock || { ...snap.clock, steal_open: true, referee_deadline: null };
      next.legal = ev.d.legal || {};
      break;
    case 'impasse_proposed':
      next.impasse = { proposed_by: ev.d.by };
      break;
    case 'impasse_declined':
      next.impasse = null;
      break;
    case 'end':
      // Agreed at an impasse: the split, and the board after it; any other end leaves no
      // proposal standing.
      next.impasse = ev.d.impasse || null;
      if (ev.d.position) next.position = ev.d.position;
      next.outcome = ev.d.outcome;
      next.status = ev.d.outcome.result === 'annulled' ? 'annulled' : 'finished';
      next.clock = NO_CLOCK;
      next.pending = null;
      next.pending_results = null;
      next.pending_move = null;
      next.to_move = null;
      next.legal = {};
      break;
  }
  if (next.status === 'finished' || next.status === 'annulled') {
    next.to_move = null;
    next.legal = {};
  }
  return next;
}

/**
 * The seats of `shown` with the connection flags of `latest` (a newer model).
 * @param {Snapshot} shown @param {Snapshot} latest
 */
export function mergeSeats(shown, latest) {
  const seats = { ...shown.seats };
  for (const side of /** @type {Side[]} */ (['s', 'n'])) {
    const seat = seats[side];
    const fresh = latest.seats[side];
    if (seat && fresh) seats[side] = { ...seat, connected: fresh.connected };
  }
  return seats;
}

/**
 * Who played the laps of a `played` event: the owner of the first lap's pit.
 * @param {string} ruleset @param {Lap[]} laps @param {Side} fallback
 * @returns {Side}
 */
export function lapMover(ruleset, laps, fallback) {
  const first = laps[0];
  if (!first) return fallback;
  const m = /^([A-H])([1-4])$/.exec(first.from);
  if (!m) return fallback;
  const cols = ruleset === 'oware' ? 6 : 8;
  return ownerOf(ruleset, (Number(m[2]) - 1) * cols + 'ABCDEFGH'.indexOf(m[1]));
}

export class GameSession {
  /**
   * @param {string} gameId
   * @param {{
   *   onState?: (snap: Snapshot) => void,
   *   onEvent?: (ev: GameEvent, before: Snapshot, after: Snapshot, live: boolean) => void,
   *   onCrowd?: (snap: Snapshot) => void,
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
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    /** @type {ConnectionState} */
    this.state = 'connecting';
    /** Events received before the connection's first `crowd` are catch-up, not live. */
    this.catchingUp = true;
    /** Milliseconds to add to `Date.now()` to get the server's clock. */
    this.clockOffset = 0;
    this.nextId = 1;
    /** @type {Map<string, {resolve: () => void, reject: (e: Error) => void}>} */
    this.waiting = new Map();
    /** @type {number | undefined} */
    this.retryTimer = undefined;
    /** @type {number | undefined} */
    this.pingTimer = undefined;
    this.lastHeard = Date.now();
    this.stopped = false;
    /** Connections in a row refused before opening. */
    this.failedUpgrades = 0;
    /** The URL of the last socket opened (tests read it to see `?v=`). */
    this.lastUrl = '';
    this.onOnline = () => this.reconnectNow();
    this.onVisible = () => {
      if (!document.hidden) this.reconnectNow();
    };
    window.addEventListener('online', this.onOnline);
    document.addEventListener('visibilitychange', this.onVisible);
  }

  /** The server's clock now, as milliseconds since the Unix epoch. */
  serverNow() {
    return Date.now() + this.clockOffset;
  }

  /** Opens the socket (again): `?v=` resumes after the last event applied. */
  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const query = this.snap ? `?v=${this.snap.version}` : '';
    const url = `${proto}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}${query}`;
    this.lastUrl = url;
    this.catchingUp = true;
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting', 0);
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (e) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      opened = true;
      this.failedUpgrades = 0;
      this.lastHeard = Date.now();
      clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.heartbeat(), PING_EVERY_MS);
    };
    ws.onmessage = (msg) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      if (this.state !== 'open') {
        // Connected once the server speaks (it may accept and close at once).
        this.attempt = 0;
        this.setState('open', 0);
      }
      let data;
      try {
        data = JSON.parse(String(msg.data));
      } catch {
        return;
      }
      this.receive(data);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!opened) {
        // Refused before it opened: the server is down, or it has no such game.
        this.failedUpgrades += 1;
        if (this.failedUpgrades === 3) this.handlers.onRefused?.();
      }
      clearInterval(this.pingTimer);
      for (const [, w] of this.waiting) w.reject(new ProtocolError('disconnected', 'the connection was lost before the server answered; try again'));
      this.waiting.clear();
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and reconnects.
    };
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > SILENCE_MS) {
      // Nothing heard (not even the pong): the connection is dead without knowing it.
      this.dropSocket();
      return;
    }
    this.ws.send(JSON.stringify({ t: 'ping', d: {} }));
  }

  /** Closes the socket; the usual reconnection follows. */
  dropSocket() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    clearInterval(this.pingTimer);
    try {
      ws.close();
    } catch {
      // already closed
    }
    this.waiting.forEach((w) => w.reject(new ProtocolError('disconnected', 'the connection was lost')));
    this.waiting.clear();
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

  /** Connects afresh (a new snapshot): after taking a seat, which binds at connection. */
  restart() {
    const ws = this.ws;
    this.ws = null;
    this.snap = null;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    ws?.close();
    this.waiting.forEach((w) => w.reject(new ProtocolError('disconnected', 'the connection was restarted')));
    this.waiting.clear();
    this.attempt = 0;
    this.connect();
  }

  reconnectNow() {
    if (this.stopped || this.ws) return;
    this.connect();
  }

  /** @param {ConnectionState} state @param {number} retryInMs */
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

  /** @param {any} msg */
  receive(msg) {
    const { t, d } = msg;
    switch (t) {
      case 'state':
        this.snap = /** @type {Snapshot} */ ({ legal: {}, pending_results: null, ...d, version: msg.v ?? d.version });
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
      this.dropSocket();
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
      const ws = this.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN) {
        reject(new ProtocolError('disconnected', 'not connected to the server; wait for the connection to come back'));
        return;
      }
      const id = `c${this.nextId++}`;
      this.waiting.set(id, { resolve, reject });
      ws.send(JSON.stringify({ t, d, id }));
    });
  }
}
