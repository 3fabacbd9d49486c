// The events as the page draws them, one after the other: each `played` event is animated
// from the position before it through its laps (when it is live, the tab visible and the
// queue short), then the page shows the snapshot the event made. A fresh `state`
// cancels the queue and any animation.

import { parsePosition, replay, sameBoard, isOware, formatPosition } from './notation.js';
import { SPEEDS } from '../core/ui.js';

/** @typedef {import('../game/model.js').Snapshot} Snapshot */
/** @typedef {import('../game/model.js').GameEvent} GameEvent */
/** @typedef {import('./notation.js').Lap} Lap */
/**
 * An event waiting to be drawn; `receivedAt` (`performance.now()`) is stamped when it is
 * queued, so that a turn shown late still finishes within its display time.
 * @typedef {{ev: GameEvent, before: Snapshot, after: Snapshot, live: boolean, receivedAt?: number}} QueueItem
 */
/**
 * What the queue needs of the page.
 * @typedef {{board: () => import('./board.js').Board | null, speed: () => import('../core/ui.js').Speed,
 *   reviewing: () => boolean, setAnimating: (on: boolean) => void,
 *   begin: (item: QueueItem) => void, show: (item: QueueItem) => void, render: () => void}} PlaybackHost
 *   `begin`: an event is about to be drawn; `show`: it is drawn, show the snapshot it made
 */

/**
 * The laps replayed here must give the server's position; a difference means this
 * client's animation is wrong (the board shows the server's position regardless).
 * @param {Snapshot} before @param {Lap[]} laps @param {string} position
 */
export function checkLaps(before, laps, position) {
  if (!before.position) return;
  try {
    const mine = replay(parsePosition(before.ruleset, before.position), laps);
    const theirs = parsePosition(before.ruleset, position);
    // Oware's final sweep moves the seeds left into the stores: not a lap.
    if (!sameBoard(mine, theirs) && !(isOware(before.ruleset) && theirs.cells.every((c) => c === 0))) {
      console.warn(`lap replay mismatch: ${formatPosition(mine)} vs ${position}`);
    }
  } catch (e) {
    console.warn('lap replay failed', e);
  }
}

/**
 * Animates a turn's laps on `board` from `start`, with the board's marks, legal pits and
 * hand cleared first (the game's events, the analysis board's moves).
 * @param {import('./board.js').Board} board
 * @param {import('./notation.js').Position} start
 * @param {Lap[]} laps
 * @param {number} msPerSeed
 */
export async function animateLaps(board, start, laps, msPerSeed) {
  board.setLegal([]);
  board.mark('last-from', []);
  board.mark('last-to', []);
  board.clearHand();
  await board.animate(start, laps, msPerSeed);
}

/** Below this many milliseconds a seed is a blur: the turn is shown at once instead. */
const FASTEST_MS_PER_SEED = 8;

/**
 * How long is left to show a turn whose display time (`played.display_ms`, the server's:
 * the next player's referee count starts when it is over) began when it was received.
 * @param {number} displayMs @param {number} receivedAt @param {number} now
 */
export function displayLeft(displayMs, receivedAt, now) {
  return Math.max(0, receivedAt + displayMs - now);
}

/**
 * The pace (milliseconds a seed) that shows `laps` within `budget` milliseconds: the
 * player's own pace when it fits, else faster; 0 when even the fastest readable pace
 * would not fit (the turn is then shown at once). Follows the board's timing
 * (`Board.animate`): a lift per lap and a drop per seed at the pace, and a capture's
 * flight of at least 4 seeds' time (220 ms when the pace is fast) plus its take-off, and
 * room for the cut's one step early.
 * @param {number} preferred the player's pace @param {Lap[]} laps @param {number} budget
 */
export function fitPace(preferred, laps, budget) {
  const steps = laps.reduce((n, lap) => n + lap.seeds, 0) + laps.length;
  const captures = laps.filter((lap) => lap.kind === 'capture').length;
  // A twentieth short of the budget (timers in a busy page run late), and one step more:
  // the cut comes a step early (`longestStep`), and a turn that fits is never cut.
  const target = budget * 0.95;
  /** @param {number} d */
  const cost = (d) => steps * d + captures * captureStep(d) + longestStep(d, laps);
  if (cost(FASTEST_MS_PER_SEED) > target) return 0;
  let d = Math.max(FASTEST_MS_PER_SEED, preferred);
  while (d > FASTEST_MS_PER_SEED && cost(d) > target) d = Math.max(FASTEST_MS_PER_SEED, Math.floor(d * 0.85));
  return d;
}

/**
 * The longest single step of `Board.animate` at `d` milliseconds a seed: a capture's
 * flight and take-off when the laps capture, else one seed.
 * @param {number} d @param {Lap[]} laps
 */
export function longestStep(d, laps) {
  return laps.some((lap) => lap.kind === 'capture') ? Math.max(d, captureStep(d)) : d;
}

/**
 * One capture of `Board.animate` at `d` milliseconds a seed: the seeds' flight (4 seeds'
 * time, at least 220 ms) and their take-off (a quarter of it, at most 120 ms).
 * @param {number} d
 */
function captureStep(d) {
  const flight = Math.max(4 * d, 220);
  return flight + Math.min(120, flight / 4);
}

export class Playback {
  /** @param {PlaybackHost} host */
  constructor(host) {
    this.host = host;
    /** @type {QueueItem[]} */
    this.queue = [];
    /** Counts the fresh snapshots: an animation started before one is not applied after. */
    this.generation = 0;
    this.running = false;
  }

  /** Nothing is queued or being drawn. */
  get idle() {
    return !this.running && this.queue.length === 0;
  }

  /** A fresh snapshot: whatever was queued or animating is out of date. */
  reset() {
    this.generation += 1;
    this.queue = [];
    this.host.board()?.skip();
  }

  /** @param {QueueItem} item */
  push(item) {
    item.receivedAt ??= performance.now();
    this.queue.push(item);
    if (this.queue.length > 3) this.host.board()?.skip();
    this.pump();
  }

  async pump() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) await this.play(/** @type {QueueItem} */ (this.queue.shift()));
    } finally {
      this.running = false;
    }
  }

  /** @param {QueueItem} item */
  async play(item) {
    const { ev, before, live } = item;
    const generation = this.generation;
    this.host.begin(item);
    if (ev.t === 'played') {
      const board = this.host.board();
      const speed = this.host.speed();
      const ms = this.pace(item, speed);
      if (board && before.position && live && ms > 0 && !this.host.reviewing()
        && ev.d.laps.length > 0 && !document.hidden && this.queue.length < 3) {
        this.host.setAnimating(true);
        try {
          const animation = animateLaps(board, parsePosition(before.ruleset, before.position), ev.d.laps, ms);
          if (ev.d.display_ms) {
            // Whatever the page's pace, the turn is shown within its display time: the next
            // player's count starts when it is over (docs/rules.md#4-play-under-the-referee-server-rules). A skip takes effect at the
            // next step, so the cut comes one step (the longest: a capture's flight) early.
            const left = displayLeft(ev.d.display_ms, item.receivedAt ?? performance.now(), performance.now());
            let timer = 0;
            const cut = new Promise((resolve) => { timer = window.setTimeout(resolve, Math.max(0, left - longestStep(ms, ev.d.laps)), 'cut'); });
            if (await Promise.race([animation, cut]) === 'cut') board.skip();
            window.clearTimeout(timer);
          }
          await animation;
        } finally {
          this.host.setAnimating(false);
        }
      }
      if (generation !== this.generation) {
        // A fresh state replaced all this while the laps were drawn: draw the state.
        this.host.render();
        return;
      }
      // A turn past the server's lap limit sends its first laps only: nothing to check.
      if (!ev.d.laps_omitted) checkLaps(before, ev.d.laps, ev.d.position);
    }
    this.host.show(item);
  }

  /**
   * The pace to animate a `played` event at: the player's, made faster to fit the display
   * time left; 0 to show it at once ("instant", or no time left).
   * @param {QueueItem} item @param {import('../core/ui.js').Speed} speed
   */
  pace(item, speed) {
    const { ev, before } = item;
    if (ev.t !== 'played' || speed === 'instant') return 0;
    const preferred = SPEEDS[speed];
    if (ev.d.display_ms) {
      const left = displayLeft(ev.d.display_ms, item.receivedAt ?? performance.now(), performance.now());
      return fitPace(preferred, ev.d.laps, left);
    }
    // A server without display times: keep it short under a referee count.
    const r = before.time_control.referee_seconds;
    return r != null ? Math.min(preferred, Math.max(8, Math.floor((r * 1000 * 0.3) / 40))) : preferred;
  }
}
