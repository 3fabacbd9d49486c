// The game page (`/g/<id>`), for players and watchers alike: the board, the players, the
// prompt for whatever the game waits for (join, arrange, move, decide, steal), clocks,
// history, and the result. The model comes from game.js; this module draws it and sends
// what the player chooses.

import { api, ApiError } from './api.js';
import { Board } from './board.js';
import { GameSession, ProtocolError, lapMover } from './game.js';
import { RULESET_NAMES, describeTimeControl } from './lobby.js';
import {
  parsePosition, legalStarts, startToken, other, sideName, describeOutcome, summarizeLaps,
  emptyPosition, ring, cellOf, formatPosition, replay, sameBoard, isOware, playTurn,
} from './notation.js';
import { currentSession, ensureSession } from './session.js';
import {
  h, replace, announce, toast, animationSpeed, saveAnimationSpeed, SPEEDS, formatRemaining, safeStorage,
} from './ui.js';

/** @typedef {import('./game.js').Snapshot} Snapshot */
/** @typedef {import('./game.js').GameEvent} GameEvent */
/** @typedef {import('./notation.js').Side} Side */
/** @typedef {import('./notation.js').Lap} Lap */
/** @typedef {import('./notation.js').Position} Position */
/** @typedef {import('./ui.js').Speed} Speed */
/** @typedef {{ev: GameEvent, before: Snapshot, after: Snapshot, live: boolean}} QueueItem */
/**
 * What the server's preview says a move or an answer would do.
 * @typedef {{laps: Lap[], position: string, pending: boolean, options: string[]|null,
 *   outcome: import('./notation.js').Outcome|null}} Preview
 */

const SIDES = /** @type {Side[]} */ (['s', 'n']);

/** What each decision answer does, in words. */
const OPTION_HELP = /** @type {Record<string, string>} */ ({
  a: 'sow on anticlockwise (the usual way)',
  c: 'sow clockwise from the same pit',
  l: 'leave the captured seeds in this hole and go on from the other reverse hole',
});

/**
 * The start position of a preset, to show before the game starts.
 * @param {Snapshot} snap
 * @returns {Position}
 */
function presetPosition(snap) {
  const pos = emptyPosition(snap.ruleset);
  if (isOware(snap.ruleset)) {
    pos.cells.fill(4);
    return pos;
  }
  for (const side of SIDES) {
    ring(snap.ruleset, side).forEach((cell, i) => {
      if (snap.ruleset === 'mweiso') pos.cells[cell] = 2;
      else if (snap.setup === 'even') pos.cells[cell] = 2;
      else if (snap.setup === 'outer') pos.cells[cell] = i < 8 ? 4 : 0;
    });
  }
  return pos;
}

/**
 * Mounts the game page.
 * @param {HTMLElement} root
 * @param {string} gameId
 */
export async function mountGame(root, gameId) {
  const view = new GameView(root, gameId);
  await view.start();
  return view;
}

class GameView {
  /** @param {HTMLElement} root @param {string} gameId */
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    /** @type {Board | null} */
    this.board = null;
    /** @type {Snapshot | null} the snapshot drawn (behind the model while animating) */
    this.shown = null;
    /** @type {QueueItem[]} */
    this.queue = [];
    /** Counts the fresh snapshots: an animation started before one is not applied after. */
    this.generation = 0;
    this.running = false;
    /** @type {Speed} */
    this.speed = animationSpeed();
    /** @type {Side | null} chosen by a watcher */
    this.viewChoice = null;
    /** @type {number | null} history entry shown instead of the game */
    this.review = null;
    this.busy = false;
    /** @type {Lap[]} the laps of the last played event (the hand while a turn waits) */
    this.lastLaps = [];
    /** @type {Map<string, Preview | 'error'>} */
    this.previews = new Map();
    this.previewKey = '';
    /** @type {Promise<void>[]} the previews asked for the decision shown */
    this.previewRequests = [];
    /** @type {string | null} the decision option previewed on the board */
    this.previewing = null;
    /** @type {number[] | null} the free-setup arrangement being edited */
    this.arrangement = null;
    this.resignArmed = false;
    /** @type {number | undefined} */
    this.resignTimer = undefined;
    /** When the steal opened, on the local clock (for the abandonment countdown). */
    this.stealSince = 0;
    /** @type {{s: number, n: number}} when each player was seen going away */
    this.awaySince = { s: 0, n: 0 };
    this.hoverToken = '';
    /** @type {string | null} a decision option that annuls the game, clicked once */
    this.armedChoice = null;
    /** When the next reconnection attempt is due (local clock), for the banner. */
    this.retryAt = 0;
    this.session = new GameSession(gameId, {
      onState: (snap) => this.onState(snap),
      onEvent: (ev, before, after, live) => this.onEvent(ev, before, after, live),
      onCrowd: (snap) => this.onCrowd(snap),
      onConnection: (state, info) => this.onConnection(state, info),
      onServerError: (code, message) => toast(`${message} (${code})`, 'error'),
      onRefused: () => this.checkRefused(),
    });
    this.connBanner = h('div', { class: 'conn-banner', id: 'conn-banner', role: 'status', hidden: true });
    this.topCard = h('div', { class: 'player-card top' });
    this.bottomCard = h('div', { class: 'player-card bottom' });
    this.boardWrap = h('div', { class: 'board-wrap' }, h('div', { class: 'board-loading muted' }, 'Connecting…'));
    this.reviewBar = h('div', { class: 'review-bar', hidden: true });
    this.turnPanel = h('section', { class: 'turn-panel', id: 'turn-panel', 'aria-label': 'Your move' });
    this.hoverLine = h('p', { class: 'hover-line muted small', id: 'hover-preview', 'aria-live': 'off' });
    this.previewBadge = h('div', { class: 'preview-badge', hidden: true, 'aria-hidden': 'true' });
    this.historyList = h('ol', { class: 'history-list', id: 'history' });
    this.infoBox = h('div', { class: 'info' });
    this.skipButton = h('button', {
      type: 'button', class: 'button secondary small skip', 'data-skip': true, hidden: true,
      onclick: () => this.board?.skip(),
    }, 'Skip animation ▸▸');
    this.speedSelect = h('select', {
      id: 'anim-speed', 'data-speed': true,
      onchange: (/** @type {Event} */ ev) => {
        const value = /** @type {HTMLSelectElement} */ (ev.currentTarget).value;
        this.speed = /** @type {Speed} */ (value in SPEEDS ? value : 'normal');
        saveAnimationSpeed(this.speed);
      },
    }, Object.keys(SPEEDS).map((k) => h('option', { value: k, selected: k === this.speed }, k[0].toUpperCase() + k.slice(1))));
    this.flipButton = h('button', {
      type: 'button', class: 'button secondary small', 'data-flip': true,
      onclick: () => {
        const snap = this.shown;
        if (!snap) return;
        this.viewChoice = other(this.viewSide(snap));
        this.render();
      },
    }, 'Turn the board');
    this.resignBox = h('div', { class: 'resign-box' });
    this.outcomeBox = h('div', { class: 'outcome-box' });
    this.buildLayout();
    window.setInterval(() => this.tick(), 100);
    // Tests reach the session through this (to cut the socket, read the resume URL).
    /** @type {any} */ (window).__omweso = {
      view: this,
      session: this.session,
      /** The game as drawn, once nothing is animating or waiting (null before). */
      settled: () => {
        const snap = this.shown;
        const model = this.session.snap;
        if (!snap || !model || this.running || this.queue.length || this.busy || this.board?.animating) return null;
        if (snap.version !== model.version) return null;
        if (snap.pending_move && !snap.pending && snap.status === 'playing') return null; // the decision follows
        return {
          version: snap.version, status: snap.status, to_move: snap.to_move, you: snap.you, pending: snap.pending,
          position: snap.position, history: snap.history.length, spectators: snap.spectators,
          opening: snap.opening, steal_open: snap.clock.steal_open, outcome: snap.outcome,
          drawn: this.board?.svg.getAttribute('data-position') ?? null,
        };
      },
    };
  }

  async start() {
    if (!/^[0-9a-fA-F-]{36}$/.test(this.gameId)) {
      this.notFound();
      return;
    }
    // A session is not needed to watch; it is looked up (without asking) to know the name.
    const who = await currentSession();
    if (who) {
      // Does the game exist? The answer's Date also shows a server clock far off ours.
      /** @type {Response | null} */
      let response = null;
      try {
        response = await fetch(`/api/games/${encodeURIComponent(this.gameId)}`, { credentials: 'same-origin' });
      } catch {
        response = null;
      }
      if (response && response.status === 404) {
        this.notFound();
        return;
      }
      const date = response?.headers.get('Date');
      const skew = date ? Date.parse(date) - Date.now() : 0;
      if (Math.abs(skew) > 2000) this.session.clockOffset = skew;
    }
    this.session.connect();
  }

  /** Sockets keep being refused: if the server itself answers, there is no such game. */
  async checkRefused() {
    if (this.session.snap) return;
    try {
      const health = await fetch('/healthz', { cache: 'no-store' });
      if (health.ok) this.notFound();
    } catch {
      // The server is down: keep trying.
    }
  }

  notFound() {
    this.session.stop();
    document.title = 'Omweso — no such game';
    replace(this.root, h('section', { class: 'card not-found', 'data-not-found': true },
      h('h1', {}, 'No game here'),
      h('p', {}, 'The link may be mistyped, or the game does not exist.'),
      h('a', { class: 'button primary', href: '/' }, 'Go to the lobby')));
  }

  buildLayout() {
    document.title = 'Omweso — game';
    this.root.classList.add('game');
    replace(this.root,
      this.connBanner,
      h('div', { class: 'game-layout' },
        h('div', { class: 'game-main' },
          this.topCard,
          h('div', { class: 'board-area' }, this.boardWrap, this.previewBadge, this.reviewBar,
            h('div', { class: 'board-toolbar' }, this.hoverLine, this.skipButton)),
          this.bottomCard,
          this.outcomeBox,
          this.turnPanel),
        h('aside', { class: 'game-side' },
          h('section', { class: 'panel' }, this.infoBox,
            h('div', { class: 'settings' },
              h('label', { for: 'anim-speed' }, 'Sowing animation '), this.speedSelect, ' ', this.flipButton)),
          h('section', { class: 'panel history-panel', 'aria-labelledby': 'history-title' },
            h('h2', { id: 'history-title' }, 'Moves'),
            h('p', { class: 'muted small' }, 'Select a move to see the position after it.'),
            this.historyList),
          h('section', { class: 'panel' }, this.resignBox,
            h('details', { class: 'announce-details' }, h('summary', {}, 'Commentary'),
              h('ol', { id: 'announce-log', class: 'small' }))))),
    );
  }

  // ---- events from the session ------------------------------------------------------

  /** @param {Snapshot} snap */
  onState(snap) {
    // A fresh snapshot: whatever was animating is out of date.
    this.generation += 1;
    this.queue = [];
    this.board?.skip();
    this.shown = snap;
    this.lastLaps = [];
    this.previews.clear();
    this.ensureBoard(snap);
    this.checkLegalMoves(snap);
    this.render();
  }

  /**
   * @param {GameEvent} ev
   * @param {Snapshot} before
   * @param {Snapshot} after
   * @param {boolean} live
   */
  onEvent(ev, before, after, live) {
    this.queue.push({ ev, before, after, live });
    if (this.queue.length > 3) this.board?.skip();
    this.pump();
  }

  /** @param {Snapshot} snap */
  onCrowd(snap) {
    const shown = this.shown;
    if (shown) {
      for (const side of SIDES) {
        const was = shown.seats[side]?.connected;
        const now = snap.seats[side]?.connected;
        if (was && !now) this.awaySince[side] = Date.now();
        if (now) this.awaySince[side] = 0;
      }
      this.shown = { ...shown, seats: this.mergeSeats(shown, snap), spectators: snap.spectators };
    }
    this.renderCards();
    this.renderInfo();
  }

  /** Connection flags from the latest model over the seats shown. @param {Snapshot} shown @param {Snapshot} latest */
  mergeSeats(shown, latest) {
    const seats = { ...shown.seats };
    for (const side of SIDES) {
      const seat = seats[side];
      const fresh = latest.seats[side];
      if (seat && fresh) seats[side] = { ...seat, connected: fresh.connected };
    }
    return seats;
  }

  /**
   * @param {import('./game.js').ConnectionState} state
   * @param {{attempt: number, retryInMs: number}} info
   */
  onConnection(state, info) {
    const banner = this.connBanner;
    if (!banner) return;
    if (state === 'open' || state === 'closed' || (state === 'connecting' && info.attempt === 0)) {
      if (!banner.hidden && state === 'open') announce('Connection restored.');
      banner.hidden = true;
      banner.removeAttribute('data-connection');
      this.retryAt = 0;
      return;
    }
    banner.hidden = false;
    banner.setAttribute('data-connection', 'lost');
    this.retryAt = info.retryInMs ? Date.now() + info.retryInMs : 0;
    if (info.attempt === 1 && info.retryInMs) announce('Connection lost. Reconnecting.');
    replace(banner,
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('span', { class: 'conn-text' }, 'Connection lost — reconnecting…'),
      h('button', { type: 'button', class: 'link-button', onclick: () => this.session.reconnectNow() }, 'Retry now'));
  }

  // ---- the animation queue ------------------------------------------------------------

  async pump() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) {
        const item = /** @type {QueueItem} */ (this.queue.shift());
        await this.play(item);
      }
    } finally {
      this.running = false;
    }
  }

  /** @param {QueueItem} item */
  async play({ ev, before, after, live }) {
    const generation = this.generation;
    this.announceEvent(ev, after);
    if (ev.t === 'played') {
      this.lastLaps = ev.d.laps;
      this.previews.clear();
      this.hoverLine.textContent = '';
      const board = this.board;
      const canAnimate = board && live && this.speed !== 'instant' && this.review === null
        && before.position && ev.d.laps.length > 0 && !document.hidden && this.queue.length < 3;
      if (board && canAnimate && before.position) {
        const start = parsePosition(before.ruleset, before.position);
        board.setLegal([]);
        board.mark('last-from', []);
        board.mark('last-to', []);
        board.clearHand();
        this.skipButton.hidden = false;
        this.turnPanel.classList.add('dimmed');
        /** @type {number} */
        let ms = SPEEDS[this.speed];
        // Under a referee count the next player's seconds are running: keep it short.
        const r = before.time_control.referee_seconds;
        if (r != null) ms = Math.min(ms, Math.max(8, Math.floor((r * 1000 * 0.3) / 40)));
        try {
          await board.animate(start, ev.d.laps, ms);
        } finally {
          this.skipButton.hidden = true;
          this.turnPanel.classList.remove('dimmed');
        }
      }
      if (generation !== this.generation) {
        // A fresh state replaced all this while the laps were drawn: draw the state.
        this.render();
        return;
      }
      // A turn past the server's lap limit sends its first laps only: nothing to check.
      if (before.position && !ev.d.laps_omitted) this.checkLaps(before, ev.d.laps, ev.d.position);
    }
    if (ev.t === 'steal') this.stealSince = live ? Date.now() : 0;
    this.shown = { ...after, seats: this.mergeSeats(after, this.session.snap || after), spectators: (this.session.snap || after).spectators };
    if (ev.t === 'joined' || ev.t === 'started' || ev.t === 'arranged') this.ensureBoard(after);
    this.render();
  }

  /**
   * The laps replayed here must give the server's position; a difference means this
   * client's animation is wrong (the board shows the server's position regardless).
   * @param {Snapshot} before @param {Lap[]} laps @param {string} position
   */
  checkLaps(before, laps, position) {
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
   * The server's legal moves (in a fresh snapshot) against the starts worked out here.
   * @param {Snapshot} snap
   */
  checkLegalMoves(snap) {
    if (!snap.legal_moves.length || !snap.position || snap.clock.steal_open) return;
    const side = snap.to_move || snap.you;
    if (!side) return;
    const pos = parsePosition(snap.ruleset, snap.position);
    const mine = legalStarts(pos, side).sort().join(' ');
    const theirs = [...new Set(snap.legal_moves.map(startToken))].sort().join(' ');
    if (mine !== theirs) console.warn(`legal starts differ: here ${mine}; server ${theirs}`);
  }

  // ---- drawing ------------------------------------------------------------------------

  /** The side at the bottom of the board. @param {Snapshot} snap @returns {Side} */
  viewSide(snap) {
    return this.viewChoice || snap.you || 's';
  }

  /** @param {Snapshot} snap */
  ensureBoard(snap) {
    if (!this.board || this.board.ruleset !== snap.ruleset) {
      this.board = new Board(snap.ruleset, {
        onActivate: (token) => this.onPit(token),
        onAdjust: (cell, delta) => this.adjustArrangement(cell, delta),
        onMoveSeed: (from, to) => this.moveArrangementSeed(from, to),
      });
      this.board.svg.addEventListener('pointerover', (ev) => this.onHover(ev));
      this.board.svg.addEventListener('focusin', (ev) => this.onHover(ev));
      this.board.svg.addEventListener('pointerleave', () => this.clearHover());
      this.board.svg.addEventListener('click', () => {
        if (this.board?.animating) this.board.skip();
      }, true);
      replace(this.boardWrap, this.board.svg);
    }
    this.board.setOrientation(this.viewSide(snap));
  }

  render() {
    const snap = this.shown;
    if (!snap) return;
    this.ensureBoard(snap);
    document.title = this.title(snap);
    this.renderBoard(snap);
    this.renderCards();
    this.renderTurnPanel(snap);
    this.renderOutcome(snap);
    this.renderHistory(snap);
    this.renderInfo();
    this.renderResign(snap);
    this.flipButton.textContent = `View from ${sideName(other(this.viewSide(snap)))}`;
  }

  /** @param {Snapshot} snap */
  title(snap) {
    const rules = RULESET_NAMES[snap.ruleset] || 'Omweso';
    if (snap.status === 'finished' || snap.status === 'annulled') return `Game over — ${rules}`;
    if (this.myTurn(snap) || this.myDecision(snap)) return `● Your move — ${rules}`;
    return `${rules} — ${snap.seats.s?.name || '?'} vs ${snap.seats.n?.name || '?'}`;
  }

  /** @param {Snapshot} snap */
  myTurn(snap) {
    return this.myStarts(snap).length > 0;
  }

  /** @param {Snapshot} snap */
  myDecision(snap) {
    return Boolean(snap.pending && snap.you && snap.to_move === snap.you && snap.status === 'playing');
  }

  /**
   * The start tokens the viewer may play now (the steal included).
   * @param {Snapshot} snap
   * @returns {string[]}
   */
  myStarts(snap) {
    const me = snap.you;
    if (!me || snap.status !== 'playing' || !snap.position || snap.pending || snap.pending_move) return [];
    const pos = parsePosition(snap.ruleset, snap.position);
    if (snap.opening.length) return snap.opening.includes(me) ? legalStarts(pos, me) : [];
    if (snap.to_move === me) return legalStarts(pos, me);
    if (snap.clock.steal_open && snap.to_move === other(me)) {
      const stolen = { ...pos, toMove: me };
      return legalStarts(stolen, me);
    }
    return [];
  }

  /** @param {Snapshot} snap */
  renderBoard(snap) {
    const board = this.board;
    if (!board || board.animating) return;
    board.setOrientation(this.viewSide(snap));
    board.clearHand();
    board.mark('last-from', []);
    board.mark('last-to', []);
    board.mark('gain', []);
    board.mark('loss', []);
    board.svg.classList.remove('previewing');
    this.previewBadge.hidden = true;
    // Reviewing a past position.
    if (this.review !== null && snap.history[this.review]) {
      const entry = snap.history[this.review];
      if (entry.position) board.setPosition(parsePosition(snap.ruleset, entry.position));
      board.svg.removeAttribute('data-position');
      board.setLegal([]);
      board.setEditable([]);
      this.renderReviewBar(snap);
      return;
    }
    this.reviewBar.hidden = true;
    if (!snap.position) {
      // Before the start: the preset, or the arrangements.
      const pos = snap.setup === 'free' && !isOware(snap.ruleset) ? this.arrangementPosition(snap) : presetPosition(snap);
      board.setPosition(pos);
      board.svg.removeAttribute('data-position');
      board.setLegal([]);
      board.setEditable(this.canArrange(snap) ? ring(snap.ruleset, /** @type {Side} */ (snap.you)) : []);
      return;
    }
    board.setEditable([]);
    const pos = parsePosition(snap.ruleset, snap.position);
    // A decision option's preview, while that decision waits (never a stale one).
    const current = this.myDecision(snap) && this.previewKey === `${snap.version}`;
    const preview = current && this.previewing ? this.previews.get(`${this.previewKey}|${this.previewing}`) : undefined;
    if (preview && preview !== 'error') {
      const after = parsePosition(snap.ruleset, preview.position);
      board.setPosition(after);
      board.svg.removeAttribute('data-position');
      board.svg.classList.add('previewing');
      this.previewBadge.hidden = false;
      this.previewBadge.textContent = `Preview: the board after “${this.previewing}”`;
      board.mark('gain', after.cells.flatMap((c, i) => (c > pos.cells[i] ? [i] : [])));
      board.mark('loss', after.cells.flatMap((c, i) => (c < pos.cells[i] ? [i] : [])));
      board.setLegal([]);
      return;
    }
    board.setPosition(pos, snap.position);
    // The last move's start and end.
    const laps = this.lastLaps;
    if (laps.length) {
      board.mark('last-from', [cellOf(snap.ruleset, laps[0].from)]);
      board.mark('last-to', [cellOf(snap.ruleset, laps[laps.length - 1].to)]);
    }
    if (snap.pending && laps.length) {
      const last = laps[laps.length - 1];
      if (last.kind === 'capture') board.showHand(cellOf(snap.ruleset, last.from), last.captured);
    }
    if (this.myDecision(snap)) {
      // Mweiso's pit choice can be made on the board too.
      board.setLegal((snap.pending || []).filter((o) => cellOf(snap.ruleset, o) >= 0));
    } else {
      board.setLegal(this.busy ? [] : this.myStarts(snap));
    }
  }

  /** @param {Snapshot} snap */
  renderReviewBar(snap) {
    const i = /** @type {number} */ (this.review);
    const entry = snap.history[i];
    this.reviewBar.hidden = false;
    replace(this.reviewBar,
      h('span', {}, `Position after move ${i + 1}: ${sideName(entry.by)} played ${entry.move}`),
      h('span', { class: 'review-nav' },
        h('button', { type: 'button', class: 'button secondary small', disabled: i === 0, onclick: () => this.setReview(i - 1), 'aria-label': 'Previous move' }, '◀'),
        h('button', { type: 'button', class: 'button secondary small', disabled: i >= snap.history.length - 1, onclick: () => this.setReview(i + 1), 'aria-label': 'Next move' }, '▶'),
        h('button', { type: 'button', class: 'button primary small', 'data-review-exit': true, onclick: () => this.setReview(null) }, 'Back to the game')));
  }

  /** @param {number | null} i */
  setReview(i) {
    this.review = i;
    this.render();
  }

  renderCards() {
    const snap = this.shown;
    if (!snap) return;
    const bottom = this.viewSide(snap);
    this.fillCard(this.bottomCard, snap, bottom);
    this.fillCard(this.topCard, snap, other(bottom));
  }

  /** @param {HTMLElement} card @param {Snapshot} snap @param {Side} side */
  fillCard(card, snap, side) {
    const seat = snap.seats[side];
    const playing = snap.status === 'playing';
    const toMove = playing && (snap.to_move === side || snap.opening.includes(side));
    const victim = playing && snap.clock.steal_open && snap.to_move === side;
    card.setAttribute('data-seat', side);
    card.classList.toggle('to-move', toMove);
    card.classList.toggle('stolen-from', victim);
    const connected = seat?.connected ?? false;
    const away = seat && !connected && playing && this.awaySince[side]
      ? ` · offline ${formatRemaining(Date.now() - this.awaySince[side])}` : '';
    let captured = null;
    if (snap.position && isOware(snap.ruleset)) {
      const pos = parsePosition(snap.ruleset, snap.position);
      captured = h('span', { class: 'captures' }, `${pos.captures[side === 's' ? 0 : 1]} captured`);
    }
    replace(card,
      h('span', { class: `dot ${seat ? (connected ? 'on' : 'off') : 'none'}`, 'data-connected': seat ? String(connected) : 'empty', title: seat ? (connected ? 'connected' : 'not connected') : 'empty seat' }),
      h('span', { class: 'player-name' }, seat ? seat.name : 'Waiting for a player…'),
      h('span', { class: 'player-side muted' }, ` ${sideName(side)}${snap.you === side ? ' (you)' : ''}`),
      seat && !connected ? h('span', { class: 'offline muted small' }, ` not connected${away}`) : null,
      captured,
      h('span', { class: 'card-clock', 'data-clock': side }),
    );
    this.updateClocks();
  }

  /** @param {Snapshot} snap */
  renderTurnPanel(snap) {
    const panel = this.turnPanel;
    const me = snap.you;
    const name = (/** @type {Side} */ side) => snap.seats[side]?.name || sideName(side);
    panel.removeAttribute('data-steal-open');
    panel.classList.remove('steal', 'your-turn', 'decision');
    if (this.review !== null) {
      const waiting = this.myTurn(snap) || this.myDecision(snap);
      replace(panel, h('p', { class: waiting ? 'prompt' : 'muted' }, 'You are looking at an earlier position.',
        waiting ? h('strong', {}, ' It is your move: go back to the game to play.') : null));
      return;
    }
    if (snap.status === 'finished' || snap.status === 'annulled') {
      replace(panel);
      return;
    }
    if (snap.status === 'setup') {
      replace(panel, ...this.setupPanel(snap));
      return;
    }
    const parts = [];
    // The steal.
    if (snap.clock.steal_open && snap.to_move && !snap.pending_move) {
      const victim = snap.to_move;
      panel.classList.add('steal');
      let text;
      if (me === other(victim)) text = [h('strong', {}, 'Steal the turn!'), ` ${name(victim)}'s referee count ran out: play any of your pits now and the turn is yours.`];
      else if (me === victim) text = [h('strong', {}, 'Your count ran out!'), ` ${name(other(victim))} may steal this turn — move now.`];
      else text = [h('strong', {}, 'Steal open: '), `${name(victim)}'s count ran out; whoever moves first plays this turn.`];
      parts.push(h('div', { class: 'steal-banner', 'data-steal-open': victim, role: 'alert' }, ...text,
        h('span', { class: 'abandon-clock small', 'data-abandon': true })));
    }
    if (this.myDecision(snap)) {
      panel.classList.add('decision');
      parts.push(...this.decisionPanel(snap));
    } else if (snap.pending_move && snap.to_move) {
      parts.push(h('p', {}, `${name(snap.to_move)} is choosing how to go on (${(snap.pending || []).join(', ') || '…'}).`));
      parts.push(this.moveLimitLine());
    } else if (snap.opening.length) {
      const mine = me && snap.opening.includes(me);
      parts.push(h('p', { class: mine ? 'prompt' : '' },
        mine ? h('strong', {}, 'Opening: ') : null,
        mine ? 'both players sow at once. Choose an outer-row pit (not the 4th or 5th from your left); the first to finish moves first in the main game.'
          : `Mweiso opening: ${snap.opening.map(name).join(' and ')} ${snap.opening.length > 1 ? 'are' : 'is'} sowing.`));
      if (me && !mine) parts.push(h('p', { class: 'muted' }, 'Your opening is played; waiting for the other.'));
    } else if (me && snap.to_move === me) {
      panel.classList.add('your-turn');
      if (!snap.clock.steal_open) {
        const reverse = this.myStarts(snap).some((t) => t.endsWith("'"));
        parts.push(h('p', { class: 'prompt' }, h('strong', {}, 'Your turn. '),
          `Choose a highlighted pit${reverse ? '; the ↻ button next to a reverse pit sows it clockwise' : ''}. Keyboard: Tab to a pit, Enter to sow.`));
      }
      parts.push(h('p', { class: 'referee-line', 'data-referee-countdown': true }));
    } else if (snap.to_move) {
      if (!snap.clock.steal_open) parts.push(h('p', {}, `${name(snap.to_move)} to move.`));
      parts.push(h('p', { class: 'referee-line', 'data-referee-countdown': true }));
    }
    if (!me && snap.status === 'playing') parts.push(h('p', { class: 'muted small' }, 'You are watching this game.'));
    replace(panel, ...parts);
    this.updateClocks();
  }

  moveLimitLine() {
    return h('p', { class: 'move-limit', 'data-move-deadline': true });
  }

  /** @param {Snapshot} snap */
  setupPanel(snap) {
    const me = snap.you;
    const free = SIDES.find((side) => !snap.seats[side]);
    const parts = [];
    if (free) {
      if (me) {
        const url = `${location.origin}/g/${snap.game_id}`;
        const input = h('input', { type: 'text', readonly: true, value: url, id: 'invite-link', 'data-invite': url, 'aria-label': 'Invite link' });
        parts.push(h('div', { class: 'invite' },
          h('p', {}, h('strong', {}, 'Waiting for an opponent. '), 'Send them this link:'),
          h('div', { class: 'invite-row' }, input,
            h('button', {
              type: 'button', class: 'button primary', 'data-copy-invite': true,
              onclick: async () => {
                try {
                  await navigator.clipboard.writeText(url);
                  toast('Link copied.');
                } catch {
                  input.select();
                  toast('Select the link and copy it.');
                }
              },
            }, 'Copy'),
            'share' in navigator ? h('button', {
              type: 'button', class: 'button secondary',
              onclick: () => navigator.share({ title: 'Play Omweso with me', url }).catch(() => {}),
            }, 'Share') : null)));
      } else {
        const host = snap.seats[other(free)]?.name || 'Someone';
        parts.push(h('div', { class: 'join' },
          h('p', {}, h('strong', {}, `${host} is waiting for an opponent.`), ` Take the free seat to play ${sideName(free)}${free === 's' ? ' (you move first)' : ''}, or stay and watch.`),
          h('button', { type: 'button', class: 'button primary big', 'data-join-seat': free, onclick: () => this.join() }, `Join the game as ${sideName(free)}`)));
      }
      return parts;
    }
    if (snap.setup === 'free') {
      if (this.canArrange(snap) && me) return this.arrangePanel(snap, me);
      const owing = SIDES.filter((side) => !snap.arrangements[side]);
      const waiting = owing.includes('s') ? 's' : 'n';
      parts.push(h('p', {}, `Free setup: ${snap.seats[waiting]?.name || sideName(waiting)} is arranging their 32 seeds${waiting === 's' ? ' (South arranges first)' : ''}.`));
      if (me && me === 'n' && owing.includes('s')) parts.push(h('p', { class: 'muted' }, 'You arrange yours after South, seeing their arrangement.'));
      return parts;
    }
    parts.push(h('p', {}, 'Starting…'));
    return parts;
  }

  // ---- free setup -----------------------------------------------------------------------

  /** May the viewer arrange now? @param {Snapshot} snap */
  canArrange(snap) {
    const me = snap.you;
    return Boolean(me && snap.status === 'setup' && snap.setup === 'free' && snap.seats.s && snap.seats.n
      && !snap.arrangements[me] && (me === 's' || snap.arrangements.s));
  }

  /** The board during free setup: the arrangements made, and the one being edited. @param {Snapshot} snap */
  arrangementPosition(snap) {
    const pos = emptyPosition(snap.ruleset);
    for (const side of SIDES) {
      const counts = side === snap.you && this.canArrange(snap) ? this.currentArrangement() : snap.arrangements[side];
      if (!counts) continue;
      ring(snap.ruleset, side).forEach((cell, i) => { pos.cells[cell] = counts[i]; });
    }
    return pos;
  }

  currentArrangement() {
    if (!this.arrangement) {
      const saved = safeStorage('omweso.arrangement');
      const parsed = saved ? saved.split(',').map(Number) : [];
      this.arrangement = parsed.length === 16 && parsed.reduce((a, b) => a + b, 0) === 32
        ? parsed : [4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0];
    }
    return this.arrangement;
  }

  /** @param {number} cell @param {number} delta */
  adjustArrangement(cell, delta) {
    const snap = this.shown;
    if (!snap || !snap.you || !this.canArrange(snap)) return;
    const arr = this.currentArrangement();
    const i = ring(snap.ruleset, snap.you).indexOf(cell);
    if (i < 0) return;
    const total = arr.reduce((a, b) => a + b, 0);
    if (delta > 0 && total >= 32) {
      toast('All 32 seeds are placed: take one out first (right-click, or -).');
      return;
    }
    if (delta < 0 && arr[i] === 0) return;
    arr[i] += delta;
    this.render();
    this.focusPit(cell);
  }

  /** @param {number} from @param {number} to */
  moveArrangementSeed(from, to) {
    const snap = this.shown;
    if (!snap || !snap.you || !this.canArrange(snap)) return;
    const arr = this.currentArrangement();
    const cells = ring(snap.ruleset, snap.you);
    const a = cells.indexOf(from);
    const b = cells.indexOf(to);
    if (a < 0 || b < 0 || arr[a] === 0) return;
    arr[a] -= 1;
    arr[b] += 1;
    this.render();
  }

  /** @param {number} cell */
  focusPit(cell) {
    const el = this.board?.pits.get(cell);
    if (el && document.activeElement !== el) el.focus();
  }

  /** @param {Snapshot} snap @param {Side} me */
  arrangePanel(snap, me) {
    const arr = this.currentArrangement();
    const total = arr.reduce((a, b) => a + b, 0);
    /** @param {number[]} counts */
    const set = (counts) => {
      this.arrangement = counts;
      this.render();
    };
    const random = () => {
      const counts = new Array(16).fill(0);
      for (let k = 0; k < 32; k++) counts[Math.floor(Math.random() * 16)] += 1;
      set(counts);
    };
    const southDone = snap.arrangements.s;
    return [
      h('div', { class: 'arrange', 'data-arrange': true },
        h('p', {}, h('strong', {}, 'Arrange your 32 seeds '), `over your 16 pits (rows ${me === 's' ? '1 and 2' : '3 and 4'}).`,
          me === 'n' && southDone ? ' South has arranged theirs: you can see it on the board.' : ''),
        h('p', { class: 'muted small' }, 'Click or tap a pit to add a seed, right-click (or press -) to take one out, drag from one pit to another to move a seed.'),
        h('p', { class: `arrange-total ${total === 32 ? 'ok' : ''}`, 'data-arrange-total': total, 'aria-live': 'polite' },
          `${total} of 32 seeds placed`, total < 32 ? ` — ${32 - total} left to place` : ''),
        h('div', { class: 'button-row' },
          h('button', { type: 'button', class: 'button secondary small', onclick: () => set(new Array(16).fill(0)) }, 'Clear'),
          h('button', { type: 'button', class: 'button secondary small', onclick: () => set([4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0]) }, 'Outer row'),
          h('button', { type: 'button', class: 'button secondary small', onclick: () => set(new Array(16).fill(2)) }, 'Even'),
          h('button', { type: 'button', class: 'button secondary small', onclick: random }, 'Random'),
          h('button', {
            type: 'button', class: 'button primary', 'data-arrange-submit': true, disabled: total !== 32 || this.busy,
            onclick: () => this.submitArrangement(),
          }, 'Done: place these seeds'))),
    ];
  }

  async submitArrangement() {
    const arr = this.currentArrangement().slice();
    this.busy = true;
    this.render();
    try {
      await this.session.send('arrange', { pits: arr });
      safeStorage('omweso.arrangement', arr.join(','));
      this.arrangement = null;
    } catch (e) {
      toast(errorText(e), 'error');
    } finally {
      this.busy = false;
      this.render();
    }
  }

  // ---- joining, moving, deciding, resigning ---------------------------------------------

  async join() {
    try {
      await ensureSession('Choose the name your opponent sees.');
      await api('POST', `/api/games/${this.gameId}/join`);
      // The seat is bound to the socket when it connects: connect again, afresh.
      this.session.restart();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) toast('Both seats are taken now: you can watch.', 'error');
      else if (!(e instanceof Error && e.message === 'cancelled')) toast(errorText(e), 'error');
    }
  }

  /** A pit (or clockwise control) was chosen on the board. @param {string} token */
  onPit(token) {
    const snap = this.shown;
    if (!snap || this.busy || this.review !== null) return;
    if (this.myDecision(snap) && (snap.pending || []).includes(token)) {
      this.decide(token);
      return;
    }
    if (!this.myStarts(snap).includes(token)) return;
    this.sendMove(token);
  }

  /** @param {string} token */
  async sendMove(token) {
    this.busy = true;
    this.board?.setLegal([]);
    this.hoverLine.textContent = `Sowing ${token.replace("'", ' clockwise')}…`;
    try {
      await this.session.send('move', { move: token });
      this.hoverLine.textContent = '';
    } catch (e) {
      this.hoverLine.textContent = '';
      toast(errorText(e), 'error');
      announce(`Move refused: ${errorText(e)}`);
    } finally {
      this.busy = false;
      if (!this.running) this.render();
    }
  }

  /** @param {string} choice */
  async decide(choice) {
    const snap = this.shown;
    if (!snap || this.busy) return;
    this.busy = true;
    this.render();
    // The previews asked for this decision are answered first: asked after the answer,
    // the server would refuse them (there would be no decision left to preview).
    await Promise.allSettled(this.previewRequests);
    const preview = this.previews.get(`${this.previewKey}|${choice}`);
    if (preview && preview !== 'error' && preview.outcome?.result === 'annulled' && this.armedChoice !== choice) {
      // RULES.md 1.4: warn before sending a choice that annuls the game.
      this.armedChoice = choice;
      this.busy = false;
      toast('This choice never ends (or runs past the move limit): the game would be annulled. Choose it again to confirm.', 'error');
      this.render();
      return;
    }
    this.armedChoice = null;
    this.previewing = null;
    try {
      await this.session.send('decide', { choice });
    } catch (e) {
      toast(errorText(e), 'error');
    } finally {
      this.busy = false;
      if (!this.running) this.render();
    }
  }

  /** @param {Snapshot} snap */
  decisionPanel(snap) {
    const options = snap.pending || [];
    const key = `${snap.version}`;
    if (this.previewKey !== key) {
      this.previewKey = key;
      this.previewing = null;
      this.armedChoice = null;
      this.previewRequests = options.map((option) => this.fetchPreview(key, option));
    }
    const hand = this.lastLaps.length ? this.lastLaps[this.lastLaps.length - 1] : null;
    const words = /** @type {Record<string, string>} */ ({
      a: 'Anticlockwise', c: 'Clockwise', l: 'Leave them',
    });
    const help = OPTION_HELP;
    const pits = options.filter((o) => cellOf(snap.ruleset, o) >= 0);
    const intro = pits.length === options.length
      ? 'Choose the pit to go on from, anticlockwise (or click it on the board).'
      : hand && hand.kind === 'capture'
        ? `You captured ${hand.captured}. How do you sow them on?`
        : 'Your lap may go on either way. Which way?';
    return [
      h('p', { class: 'prompt' }, h('strong', {}, 'Decision: '), intro),
      h('div', { class: 'choices', role: 'group', 'aria-label': 'Options' }, options.map((option) => {
        const preview = this.previews.get(`${key}|${option}`);
        const armed = this.armedChoice === option;
        const b = h('button', {
          type: 'button', class: `button choice ${armed ? 'armed' : ''}`, 'data-choice': option, disabled: this.busy,
          'aria-describedby': `choice-${option}-preview`,
          onclick: () => this.decide(option),
          onpointerenter: () => this.showPreview(option),
          onpointerleave: () => this.showPreview(null),
          onfocus: () => this.showPreview(option),
          onblur: () => this.showPreview(null),
        },
        h('span', { class: 'choice-name' }, armed ? 'Confirm: annul the game' : words[option] || option),
        h('span', { class: 'choice-token' }, option),
        h('span', { class: 'choice-preview small', id: `choice-${option}-preview`, 'data-preview': option }, this.previewText(preview, help[option] || `go on from ${option}`)));
        return b;
      })),
      h('p', { class: 'muted small' }, 'Point at (or focus) an option to see its result on the board.'),
      this.moveLimitLine(),
    ];
  }

  /**
   * @param {Preview | 'error' | undefined} preview
   * @param {string} fallback
   */
  previewText(preview, fallback) {
    if (!preview) return `${fallback} · working out…`;
    if (preview === 'error') return fallback;
    const parts = [summarizeLaps(preview.laps)];
    if (preview.pending) parts.push('then another choice');
    if (preview.outcome) {
      if (preview.outcome.result === 'annulled') parts.push('⚠ the game would be annulled');
      else if (preview.outcome.result === 'win') parts.push(preview.outcome.winner === this.shown?.you ? `you win (${preview.outcome.victory})` : `you lose (${preview.outcome.victory})`);
    }
    return `${fallback} — ${parts.join('; ')}`;
  }

  /** @param {string} key @param {string} option */
  async fetchPreview(key, option) {
    const id = `${key}|${option}`;
    try {
      const preview = await api('POST', `/api/games/${this.gameId}/preview`, { choice: option });
      this.previews.set(id, preview);
    } catch (e) {
      this.previews.set(id, 'error');
    }
    if (this.previewKey === key && !this.running) {
      const el = this.turnPanel.querySelector(`[data-preview="${CSS.escape(option)}"]`);
      const snap = this.shown;
      if (el && snap) {
        el.textContent = this.previewText(this.previews.get(id), OPTION_HELP[option] || `go on from ${option}`);
      }
      if (this.previewing === option && snap) this.renderBoard(snap);
    }
  }

  /** @param {string | null} option */
  showPreview(option) {
    if (this.previewing === option) return;
    this.previewing = option;
    if (this.shown && !this.board?.animating) this.renderBoard(this.shown);
  }

  /**
   * Pointing at (or focusing) a legal pit says what it would do, worked out here by the
   * same turn loop as the engine's (no request: nothing to go stale or be refused).
   * @param {Event} ev
   */
  onHover(ev) {
    const snap = this.shown;
    const target = /** @type {Element | null} */ (ev.target instanceof Element ? ev.target.closest('[data-pit]') : null);
    if (!snap || !target || !snap.position || !snap.you || this.busy || this.review !== null || this.myDecision(snap)) return;
    const token = target.getAttribute('data-pit') || '';
    if (!target.hasAttribute('data-legal') || token === this.hoverToken || !this.myStarts(snap).includes(token)) return;
    this.hoverToken = token;
    try {
      const pos = parsePosition(snap.ruleset, snap.position);
      const me = snap.you;
      const p = playTurn({ ...pos, toMove: pos.toMove.startsWith('o') ? pos.toMove : me }, me, token, this.budget(snap));
      let tail = '';
      if (p.end === 'decision') tail = `, then a choice (${(p.options || []).join(', ')})`;
      if (p.outcome?.result === 'win') tail += ` — wins the game (${p.outcome.victory})`;
      if (p.outcome?.result === 'annulled') tail += ' — the turn would not end: the game would be annulled';
      this.hoverLine.textContent = `${token.replace("'", ' clockwise')}: ${summarizeLaps(p.laps)}${tail}.`;
    } catch (e) {
      this.hoverLine.textContent = '';
    }
  }

  /** The sowing budget of a turn: the move limit at the table's sowing pace. @param {Snapshot} snap */
  budget(snap) {
    const tc = snap.time_control;
    return tc.move_limit_seconds == null ? 1e9 : Math.floor(tc.move_limit_seconds * tc.sowing_pace);
  }

  clearHover() {
    this.hoverToken = '';
    if (!this.busy) this.hoverLine.textContent = '';
  }

  /** @param {Snapshot} snap */
  renderResign(snap) {
    clearTimeout(this.resignTimer);
    const playing = snap.status === 'playing' || (snap.status === 'setup' && snap.seats.s && snap.seats.n);
    if (!snap.you || !playing) {
      replace(this.resignBox, h('a', { href: `/${location.search}`, class: 'button secondary small' }, '← Lobby'));
      return;
    }
    if (!this.resignArmed) {
      replace(this.resignBox,
        h('a', { href: `/${location.search}`, class: 'button secondary small' }, '← Lobby'), ' ',
        h('button', { type: 'button', class: 'button danger small', 'data-resign': true, onclick: () => { this.resignArmed = true; this.render(); } }, 'Resign'));
      return;
    }
    this.resignTimer = window.setTimeout(() => { this.resignArmed = false; this.render(); }, 6000);
    replace(this.resignBox,
      h('span', {}, 'Resign this game? '),
      h('button', {
        type: 'button', class: 'button danger small', 'data-resign-confirm': true,
        onclick: async () => {
          this.resignArmed = false;
          try {
            await this.session.send('resign', {});
          } catch (e) {
            toast(errorText(e), 'error');
          }
          this.render();
        },
      }, 'Yes, resign'), ' ',
      h('button', { type: 'button', class: 'button secondary small', onclick: () => { this.resignArmed = false; this.render(); } }, 'Cancel'));
  }

  /** @param {Snapshot} snap */
  renderOutcome(snap) {
    const outcome = snap.outcome;
    if (!outcome || (snap.status !== 'finished' && snap.status !== 'annulled')) {
      replace(this.outcomeBox);
      this.outcomeBox.hidden = true;
      return;
    }
    const name = (/** @type {Side} */ side) => `${snap.seats[side]?.name || sideName(side)} (${sideName(side)})`;
    const { title, detail } = describeOutcome(outcome, name, snap.ruleset);
    const mine = outcome.result === 'win' && snap.you ? (outcome.winner === snap.you ? 'won' : 'lost') : '';
    this.outcomeBox.hidden = false;
    replace(this.outcomeBox,
      h('div', {
        class: `outcome ${mine}`, role: 'status', 'data-outcome': outcome.result,
        'data-winner': outcome.result === 'win' ? outcome.winner : null,
        'data-victory': outcome.result === 'win' ? outcome.victory : outcome.result === 'annulled' ? outcome.reason : null,
      },
      h('h2', {}, mine === 'won' ? `You win! ${title}` : mine === 'lost' ? `You lose. ${title}` : title),
      h('p', {}, detail),
      h('p', { class: 'muted small' }, `${snap.history.length} moves.`),
      h('a', { class: 'button primary', href: `/${location.search}` }, 'Back to the lobby')));
  }

  /** @param {Snapshot} snap */
  renderHistory(snap) {
    const list = this.historyList;
    const items = snap.history.map((entry, i) => h('li', {},
      h('button', {
        type: 'button', class: `history-move ${this.review === i ? 'current' : ''}`, 'data-history-index': i,
        'aria-pressed': this.review === i ? 'true' : 'false', disabled: !entry.position,
        onclick: () => this.setReview(this.review === i ? null : i),
      },
      h('span', { class: 'move-no' }, `${i + 1}.`),
      h('span', { class: `move-side side-${entry.by}` }, entry.by === 's' ? 'S' : 'N'),
      h('span', { class: 'move-text' }, entry.move),
      entry.stolen ? h('span', { class: 'stolen-tag', title: 'a stolen turn' }, 'stolen') : null)));
    if (!items.length) items.push(h('li', { class: 'muted small' }, 'No moves yet.'));
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
    replace(list, items);
    if (atEnd && this.review === null) list.scrollTop = list.scrollHeight;
  }

  renderInfo() {
    const snap = this.shown;
    if (!snap) return;
    const rules = RULESET_NAMES[snap.ruleset] || snap.ruleset;
    const start = snap.ruleset === 'omweso' ? ` · ${snap.setup} start` : '';
    replace(this.infoBox,
      h('h2', {}, `${rules}${start}`),
      h('p', { class: 'small muted' }, describeTimeControl(snap.time_control)),
      h('p', { class: 'small spectators' }, eyeIcon(), h('span', { 'data-spectators': snap.spectators }, `${snap.spectators} watching`)));
  }

  // ---- clocks -------------------------------------------------------------------------

  tick() {
    this.updateClocks();
    const banner = this.connBanner;
    if (banner && !banner.hidden && this.retryAt) {
      const text = banner.querySelector('.conn-text');
      const left = Math.max(0, this.retryAt - Date.now());
      if (text) text.textContent = left > 0 ? `Connection lost — reconnecting in ${Math.ceil(left / 1000)} s…` : 'Connection lost — reconnecting…';
    }
  }

  updateClocks() {
    const snap = this.shown;
    if (!snap) return;
    const now = this.session.serverNow();
    const clock = snap.clock;
    const referee = clock.referee_deadline != null && snap.status === 'playing' ? clock.referee_deadline - now : null;
    const r = snap.time_control.referee_seconds;
    for (const el of this.root.querySelectorAll('[data-clock]')) {
      if (!(el instanceof HTMLElement)) continue;
      const side = el.getAttribute('data-clock');
      if (referee != null && snap.to_move === side && !snap.pending_move) {
        const frac = r ? Math.max(0, Math.min(1, referee / (r * 1000))) : 0;
        el.className = `card-clock running ${referee < 1000 ? 'low' : ''}`;
        // Through the CSSOM, which the page's Content-Security-Policy allows (a style
        // attribute would need 'unsafe-inline').
        el.style.setProperty('--frac', String(frac));
        el.textContent = formatRemaining(referee);
        el.setAttribute('aria-label', `referee count: ${formatRemaining(referee)} left`);
      } else if (clock.steal_open && snap.to_move === side && snap.status === 'playing') {
        el.className = 'card-clock expired';
        el.textContent = 'count ran out';
      } else {
        el.className = 'card-clock';
        el.textContent = '';
      }
    }
    for (const el of this.root.querySelectorAll('[data-referee-countdown]')) {
      if (referee == null) {
        el.textContent = snap.time_control.referee_seconds == null || clock.steal_open ? '' : '';
        continue;
      }
      const mine = snap.to_move === snap.you;
      el.textContent = `${mine ? 'Your' : 'Their'} referee count: ${formatRemaining(referee)}${mine ? ' — start your turn before it runs out, or it may be stolen.' : ''}`;
      el.classList.toggle('low', referee < 1000);
    }
    for (const el of this.root.querySelectorAll('[data-move-deadline]')) {
      el.textContent = clock.move_deadline != null ? `Move limit: ${formatRemaining(clock.move_deadline - now)} left to finish this turn.` : '';
    }
    for (const el of this.root.querySelectorAll('[data-abandon]')) {
      if (this.stealSince) {
        const left = snap.time_control.abandon_seconds * 1000 - (Date.now() - this.stealSince);
        el.textContent = left > 0 ? ` (If nobody moves within ${formatRemaining(left)}, ${snap.seats[snap.to_move || 's']?.name || 'the player'} loses by abandonment.)` : '';
      }
    }
  }

  // ---- words for screen readers -------------------------------------------------------

  /** @param {GameEvent} ev @param {Snapshot} after */
  announceEvent(ev, after) {
    const name = (/** @type {Side} */ side) => `${after.seats[side]?.name || sideName(side)} (${sideName(side)})`;
    switch (ev.t) {
      case 'joined':
        announce(`${ev.d.name} joined as ${sideName(ev.d.seat)}.`);
        break;
      case 'started':
        announce(ev.d.to_move ? `The game has started. ${name(ev.d.to_move)} moves first.` : 'The game has started: both players play their opening at once.');
        break;
      case 'arranged':
        announce(`${name(ev.d.by)} has arranged their seeds.`);
        break;
      case 'played': {
        const by = lapMover(after.ruleset, ev.d.laps, ev.d.by);
        announce(`${name(by)} ${ev.d.stolen ? 'stole the turn and ' : ''}played ${ev.d.move}: ${summarizeLaps(ev.d.laps)}${ev.d.pending ? '; a choice follows' : ''}.`);
        break;
      }
      case 'decision':
        announce(after.you === ev.d.by ? `Your decision: ${ev.d.options.join(', ')}.` : `${name(ev.d.by)} is choosing: ${ev.d.options.join(', ')}.`);
        break;
      case 'steal':
        announce(after.you === other(ev.d.victim) ? `${name(ev.d.victim)}'s count ran out: you may steal the turn now.` : `${name(ev.d.victim)}'s referee count ran out: ${name(other(ev.d.victim))} may steal the turn.`);
        break;
      case 'end': {
        const { title, detail } = describeOutcome(ev.d.outcome, name, after.ruleset);
        announce(`Game over. ${title}. ${detail}`);
        break;
      }
    }
  }
}

function eyeIcon() {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.innerHTML = '<path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.2" fill="currentColor"/>';
  return svg;
}

/** @param {unknown} e */
function errorText(e) {
  if (e instanceof ProtocolError || e instanceof ApiError) return e.message;
  return e instanceof Error ? e.message : String(e);
}

