// One tournament as the page knows it: the snapshot (docs/protocol.md "Tournaments"), kept
// current by the versioned events of the tournament socket, the latest `board` of every
// table, and who is connected. One socket for the whole page, whatever the number of
// tables. No DOM here: the views subscribe.

import { LiveSocket } from '../core/livesocket.js';
import { ApiError } from '../core/api.js';

/** @typedef {import('../board/notation.js').Side} Side */
/** @typedef {import('../board/notation.js').Outcome} Outcome */
/** @typedef {import('../game/model.js').Clock} Clock */
/** @typedef {{player_id: string, name: string, withdrawn: boolean, joined_after_round: number, added_by_director?: boolean, seed?: number, seed_rating?: number}} PlayerView */
/** @typedef {{first_result: string, second_result: string|null, victory: string|null}} ResultView */
/** @typedef {{at_ms: number, by: string, by_name: string, reason: string, before: ResultView, after: ResultView}} CorrectionView */
/**
 * @typedef {{status: 'pending'|'confirmed'|'disputed'|'corrected', first_result: string,
 *   second_result: string|null, victory: string|null, seeds: {first: number, second: number},
 *   turns: number, duration_ms: number, points: {first: number, second: number},
 *   corrections: CorrectionView[], game_id: string|null, moved_first: string|null,
 *   confirmed_by: string[], dispute: {by: string, reason: string, at_ms: number}|null,
 *   confirms_at: number|null,
 *   arrangements?: {first: number[], second: number[], late: {first: boolean, second: boolean}},
 *   over_the_board?: boolean, seeds_on_board?: {first: number, second: number}}} SheetView
 */
/**
 * One entry of a board table's result (docs/protocol.md#over-the-board-addition): who
 * entered it, the result, and who initialled it (`confirmed_for`: a director for a
 * player without a device).
 * @typedef {{by: string, by_name: string, from_relay: boolean, winner: string | null,
 *   victory: string | null, seeds: {first: number, second: number}, at_ms: number,
 *   confirmed_by: string[], confirmed_for?: {player: string, by: string, by_name: string}[]}} BoardEntryView
 */
/**
 * A table played over the board: its entries, what it waits for, its relay.
 * @typedef {{entries: BoardEntryView[], dispute: {by: string, reason: string, at_ms: number} | null,
 *   waiting_for_director: boolean, relay: string | null, relay_name: string | null,
 *   relayed: boolean, missing: boolean}} BoardTableView
 */
/**
 * @typedef {{table: number, first: string, second: string|null, game_id: string|null,
 *   sheet: SheetView|null, replaced: {game_id: string, sheet: SheetView|null}[],
 *   played_at?: 'online'|'board', board?: BoardTableView|null}} PairingView
 */
/**
 * @typedef {{number: number, status: 'paired'|'playing'|'finished', deadline: number|null,
 *   pairings: PairingView[], manual: boolean, breaches: string[], started_at: number|null,
 *   closing: boolean, ended_by_director?: boolean}} RoundView
 */
/**
 * @typedef {{rank: number, player_id: string, name: string, points: number, buchholz: number,
 *   sonneborn_berger: number, seeds: number, games: number, wins: number, draws: number,
 *   losses: number, direct: number}} StandingView
 */
/**
 * @typedef {{name: string, ruleset: import('../board/notation.js').Ruleset, setup: string,
 *   time_control: import('../game/model.js').TimeControl, system: string, rounds: number,
 *   round_minutes: number, balance_first_move: boolean, points: Record<string, number>,
 *   forbidden_pairs: [string, string][], played_at?: 'online'|'board', rated?: boolean}} SettingsView
 */
/**
 * @typedef {{tournament_id: string, name: string, ruleset: import('../board/notation.js').Ruleset,
 *   system: string, settings: SettingsView, status: 'open'|'running'|'finished',
 *   director: string, you: string|null, players: PlayerView[], rounds: RoundView[],
 *   standings: StandingView[], version: number, rounds_planned: number,
 *   created_at_ms: number, director_name?: string,
 *   co_directors?: CoDirectorView[]}} TournamentSnapshot
 */
/** @typedef {{id: string, name: string}} CoDirectorView */
/**
 * @typedef {{table: number, game_id: string, position: string|null, to_move: Side|null,
 *   last_move: string|null, clock: Clock, outcome: Outcome|null, round: number,
 *   version: number, status: string}} BoardView
 */
/** @typedef {'state'|'player'|'players'|'round'|'sheet'|'standings'|'status'|'directors'|'board'|'presence'|'connection'|'device_linked'} ChangeKind */

/** How many boards the page remembers having shown (tests compare them with the moves). */
const BOARD_LOG_MAX = 20000;

/**
 * Applies one versioned event to a snapshot; returns the new snapshot (the old one is left
 * as it was).
 * @param {TournamentSnapshot} snap
 * @param {{t: string, v: number, d: any}} ev
 * @returns {TournamentSnapshot}
 */
export function applyTournamentEvent(snap, ev) {
  const next = { ...snap, version: ev.v };
  switch (ev.t) {
    case 'player': {
      const player = /** @type {PlayerView} */ (ev.d);
      const at = snap.players.findIndex((p) => p.player_id === player.player_id);
      next.players = at < 0 ? [...snap.players, player] : snap.players.map((p, i) => (i === at ? player : p));
      // Before a round has started the server sends no standings for a join: everyone has
      // nothing and shares rank 1, so the newcomer's line is that (docs/protocol.md).
      const started = snap.rounds.some((r) => r.started_at != null);
      if (!started && !snap.standings.some((s) => s.player_id === player.player_id)) {
        next.standings = [...snap.standings, {
          rank: 1, player_id: player.player_id, name: player.name, points: 0, buchholz: 0, sonneborn_berger: 0,
          seeds: 0, games: 0, wins: 0, draws: 0, losses: 0, direct: 0,
        }];
      }
      break;
    }
    case 'players':
      // A rated tournament seeded its field: every player with their seed.
      next.players = /** @type {PlayerView[]} */ (ev.d.players);
      break;
    case 'round': {
      const round = /** @type {RoundView} */ (ev.d);
      const rounds = snap.rounds.filter((r) => r.number !== round.number);
      rounds.push(round);
      rounds.sort((a, b) => a.number - b.number);
      next.rounds = rounds;
      break;
    }
    case 'sheet': {
      const { round: number, table, game_id: gameId, sheet } = ev.d;
      next.rounds = snap.rounds.map((r) => (r.number !== number ? r : {
        ...r,
        pairings: r.pairings.map((p) => {
          if (p.table !== table) return p;
          if (gameId && p.game_id !== gameId) {
            return { ...p, replaced: p.replaced.map((old) => (old.game_id === gameId ? { ...old, sheet } : old)) };
          }
          return { ...p, sheet };
        }),
      }));
      break;
    }
    case 'standings':
      next.standings = ev.d.standings;
      break;
    case 'status':
      next.status = ev.d.status;
      break;
    case 'directors':
      next.director_name = ev.d.director_name;
      next.co_directors = ev.d.co_directors;
      break;
    default:
      break;
  }
  return next;
}

export class TournamentStore {
  /**
   * @param {string} id
   * @param {TournamentSnapshot} snapshot as read over HTTP
   * @param {{player_id: string, name: string} | null} me
   * @param {number} skew milliseconds to add to the local clock to get the server's
   */
  constructor(id, snapshot, me, skew) {
    this.id = id;
    this.snapshot = snapshot;
    this.me = me;
    this.skew = skew;
    /** @type {Map<string, BoardView>} */
    this.boards = new Map();
    /** @type {Set<string>} */
    this.presence = new Set();
    /** @type {[string, number, string | null][]} */
    this.boardLog = [];
    /** @type {Set<(kind: ChangeKind, detail?: any) => void>} */
    this.listeners = new Set();
    this.socket = new LiveSocket(() => this.socketPath(), {
      onMessage: (msg) => this.receive(msg),
      onConnection: (state, info) => {
        this.notify('connection', { state, ...info });
      },
    });
  }

  /**
   * Reads the tournament over HTTP (the Date header gives the server's clock).
   * @param {string} id
   * @param {{player_id: string, name: string} | null} me
   * @returns {Promise<TournamentStore>}
   */
  static async open(id, me) {
    const { snapshot, skew } = await fetchSnapshot(id);
    const store = new TournamentStore(id, snapshot, me, skew);
    store.socket.connect();
    return store;
  }

  socketPath() {
    // The first connection after the HTTP read resumes from its version: no second state.
    return `/ws/tournaments/${encodeURIComponent(this.id)}?v=${this.snapshot.version}`;
  }

  /** The server's clock now. */
  now() {
    return Date.now() + this.skew;
  }

  /**
   * Whether this person has the console: the director or a co-director. The snapshot
   * alone says so (the same person on any of their devices has the same player id).
   */
  isDirector() {
    const me = this.me?.player_id;
    if (!me) return false;
    return me === this.snapshot.director || (this.snapshot.co_directors || []).some((c) => c.id === me);
  }

  /** Whether this person created the tournament (only they name or remove co-directors). */
  isChiefDirector() {
    return Boolean(this.me && this.me.player_id === this.snapshot.director);
  }

  /** @param {string | null | undefined} playerId */
  name(playerId) {
    if (!playerId) return 'bye';
    return this.snapshot.players.find((p) => p.player_id === playerId)?.name || '?';
  }

  /** The last round paired, or null. */
  currentRound() {
    const rounds = this.snapshot.rounds;
    return rounds.length ? rounds[rounds.length - 1] : null;
  }

  /** @param {(kind: ChangeKind, detail?: any) => void} fn @returns {() => void} */
  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** @param {ChangeKind} kind @param {any} [detail] */
  notify(kind, detail) {
    for (const fn of this.listeners) {
      try {
        fn(kind, detail);
      } catch (e) {
        console.warn(e);
      }
    }
  }

  /** Reads the snapshot again over HTTP (after an action, to show its effect at once). */
  async refresh() {
    const { snapshot } = await fetchSnapshot(this.id);
    if (snapshot.version >= this.snapshot.version) {
      this.snapshot = snapshot;
      this.notify('state');
    }
  }

  /** @param {any} msg */
  receive(msg) {
    const { t, d } = msg;
    switch (t) {
      case 'state':
        this.snapshot = { ...d, version: msg.v ?? d.version };
        this.notify('state');
        return;
      case 'board':
        this.applyBoard(/** @type {BoardView} */ (d));
        return;
      case 'boards':
        // Every table that changed in one period, in one message: each as its own board.
        for (const board of /** @type {BoardView[]} */ (d.boards || [])) this.applyBoard(board);
        return;
      case 'presence':
        this.presence = new Set(d.connected || []);
        this.notify('presence');
        return;
      case 'pong':
        return;
      case 'error':
        console.warn(`tournament socket: ${d.code}: ${d.message}`);
        return;
      default:
        if (typeof msg.v === 'number') this.versioned(msg);
    }
  }

  /** @param {{t: string, v: number, d: any}} ev */
  versioned(ev) {
    if (ev.v <= this.snapshot.version) return; // seen already
    if (ev.v > this.snapshot.version + 1) {
      // A gap: reconnect, resuming after the last event applied.
      this.socket.drop();
      return;
    }
    this.snapshot = applyTournamentEvent(this.snapshot, ev);
    this.notify(/** @type {ChangeKind} */ (ev.t), ev.d);
  }

  /** @param {BoardView} board */
  applyBoard(board) {
    const known = this.boards.get(board.game_id);
    if (known && known.version > board.version) return; // an older one, late
    this.boards.set(board.game_id, board);
    this.boardLog.push([board.game_id, board.version, board.position]);
    // Trimmed in steps, not on every board: a splice moves the whole log.
    if (this.boardLog.length > BOARD_LOG_MAX + 1000) this.boardLog.splice(0, this.boardLog.length - BOARD_LOG_MAX);
    this.notify('board', board);
  }

  stop() {
    this.socket.stop();
  }
}

/**
 * @param {string} id
 * @returns {Promise<{snapshot: TournamentSnapshot, skew: number}>}
 */
async function fetchSnapshot(id) {
  let response;
  try {
    response = await fetch(`/api/tournaments/${encodeURIComponent(id)}`, {
      credentials: 'same-origin', headers: { Accept: 'application/json' }, cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'network', 'the server cannot be reached; check your connection');
  }
  const text = await response.text();
  /** @type {any} */
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data && data.error;
    throw new ApiError(response.status, err?.code || `http_${response.status}`, err?.message || response.statusText);
  }
  const date = response.headers.get('Date');
  // The Date header counts whole seconds: only a clock far off is corrected.
  const skew = date ? Date.parse(date) - Date.now() : 0;
  return { snapshot: data, skew: Math.abs(skew) > 2000 ? skew : 0 };
}
