// The events as the page draws them, one after the other: each `played` event is animated
// from the position before it through its laps (when it is live, the tab visible and the
// queue short), then the page shows the snapshot the event made. A fresh `state`
// cancels the queue and any animation.

import { parsePosition, replay, sameBoard, isOware, formatPosition } from './notation.js';
import { SPEEDS } from './ui.js';

/** @typedef {import('./game.js').Snapshot} Snapshot */
/** @typedef {import('./game.js').GameEvent} GameEvent */
/** @typedef {import('./notation.js').Lap} Lap */
/** @typedef {{ev: GameEvent, before: Snapshot, after: Snapshot, live: boolean}} QueueItem */
/**
 * What the queue needs of the page.
 * @typedef {{board: () => import('./board.js').Board | null, speed: () => import('./ui.js').Speed,
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
      if (board && before.position && live && speed !== 'instant' && !this.host.reviewing()
        && ev.d.laps.length > 0 && !document.hidden && this.queue.length < 3) {
        /** @type {number} */
        let ms = SPEEDS[speed];
        // Under a referee count the next player's seconds are running: keep it short.
        const r = before.time_control.referee_seconds;
        if (r != null) ms = Math.min(ms, Math.max(8, Math.floor((r * 1000 * 0.3) / 40)));
        this.host.setAnimating(true);
        try {
          await animateLaps(board, parsePosition(before.ruleset, before.position), ev.d.laps, ms);
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
}
