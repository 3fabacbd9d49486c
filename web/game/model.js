// One game as the page knows it, with no DOM and no socket: the snapshot and event types of
// docs/protocol.md, and the pure functions that keep the snapshot current (`applyEvent`,
// applied to each versioned event in order by gamesession.js). Pure, so node tests replay
// a game's events without a browser (tests/notation.test.js, tests/game_model.test.js).

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
 *   arrangements: {s: number[]|null, n: number[]|null}, impasse?: Impasse|null, relayed?: boolean,
 *   tournament?: string}} Snapshot
 *   `relayed`: played on a wooden board, its moves entered by the table's relay;
 *   `tournament`: the tournament it is played in.
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
 *   | {t: 'end', v: number, d: {outcome: Outcome, impasse?: Impasse, position?: string}}
 *   | {t: 'undone', v: number, d: Undone}} GameEvent
 */
/**
 * A relayed game's relay took back their last entry: the game as it stands again, with
 * the number of whole moves played now (the history after them is dropped).
 * @typedef {{moves: number, status: 'setup'|'playing', position: string|null, to_move: Side|null,
 *   opening?: Side[], pending: string[]|null, pending_results?: OptionResult[]|null, pending_move: string|null,
 *   arrangements?: {s: number[]|null, n: number[]|null}, clock?: Clock, legal?: Legal}} Undone
 */
const NO_CLOCK = { referee_deadline: null, steal_open: false, move_deadline: null };

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
    case 'undone':
      // Everything the entry taken back had changed comes with the event: the page need
      // work nothing out, and an entry that ended the game leaves no outcome behind.
      next.status = ev.d.status;
      next.position = ev.d.position;
      next.to_move = ev.d.to_move;
      next.opening = ev.d.opening || [];
      next.pending = ev.d.pending;
      next.pending_results = ev.d.pending_results || null;
      next.pending_move = ev.d.pending_move;
      next.arrangements = { s: null, n: null, ...ev.d.arrangements };
      next.clock = ev.d.clock || NO_CLOCK;
      next.legal = ev.d.legal || {};
      next.history = snap.history.slice(0, ev.d.moves);
      next.outcome = null;
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
