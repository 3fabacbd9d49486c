// The game page (`/g/<id>`), for players and watchers alike: it keeps the snapshot drawn
// (behind the model while a turn is animated), lays the page out and has its parts draw
// it - the board (board/boardview.js), the player cards and the result (players.js), the prompt
// (turnpanel.js) with the decision panel (decision.js) and the setup editor (arrange.js),
// the history (history.js), the line under the board (hoverline.js), the clocks
// (clocks.js), and once the game is over its permanent page's panel (archive/finishedgame.js).
// The events come through board/playback.js in order; the model from gamesession.js.

import { SetupEditor } from './arrange.js';
import { BoardView } from '../board/boardview.js';
import { Clocks } from './clocks.js';
import { announceEvent } from './commentary.js';
import { ConnectionBanner, probeGame, serverAnswers } from './connection.js';
import { DecisionPanel } from './decision.js';
import { GameSession } from './gamesession.js';
import { mergeSeats } from './model.js';
import { History } from './history.js';
import { FinishedPanel } from '../archive/finishedgame.js';
import { HoverLine } from './hoverline.js';
import { RULESET_NAMES } from '../core/words.js';
import { cellOf } from '../board/notation.js';
import { Playback } from '../board/playback.js';
import { Players } from './players.js';
import { currentSession } from '../core/session.js';
import { TurnPanel } from './turnpanel.js';
import { ImpassePanel } from './impasse.js';
import { myDecision, myStarts, myTurn } from './viewer.js';
import { h, replace, announce, toast, errorText } from '../core/ui.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('../board/notation.js').Lap} Lap */

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
    /** @type {Snapshot | null} the snapshot drawn (behind the model while animating) */
    this.shown = null;
    /** A move is on its way to the server. */
    this.moving = false;
    /** The turn "Your turn" was last said for ('' when it is not the player's). */
    this.turnSaid = '';
    /** @type {Lap[]} the laps of the last played event (the hand while a turn waits) */
    this.lastLaps = [];
    this.session = new GameSession(gameId, {
      onState: (snap) => this.onState(snap),
      onEvent: (ev, before, after, live) => this.playback.push({ ev, before, after, live }),
      onCrowd: (snap) => this.onCrowd(snap),
      onRatings: (ratings) => {
        this.players.heardRatings(ratings);
        this.render();
      },
      onConnection: (state, info) => this.banner.update(state, info),
      onServerError: (code, message) => toast(`${message} (${code})`, 'error'),
      onRefused: () => this.checkRefused(),
    });
    const snap = () => this.shown;
    const render = () => this.render();
    this.clocks = new Clocks(root, () => this.session.serverNow());
    this.banner = new ConnectionBanner(() => this.session.reconnectNow());
    this.history = new History(render, gameId);
    /** Once the game is over: its result, replay steps, analysis and download links. */
    this.finished = new FinishedPanel({ gameId, history: this.history });
    this.hover = new HoverLine({ snap, busy: () => this.busy, reviewing: () => this.history.review !== null });
    this.boardView = new BoardView({
      onActivate: (token) => this.onPit(token),
      onAdjust: (cell, delta) => this.shown && this.editor.adjust(this.shown, cell, delta),
      onMoveSeed: (from, to) => this.shown && this.editor.moveSeed(this.shown, from, to),
      attach: (svg) => this.hover.attach(svg),
      flip: render,
    });
    this.decision = new DecisionPanel({
      snap, render, renderBoard: () => this.shown && this.renderBoard(this.shown),
      send: (choice) => this.session.send('decide', { choice }), running: () => this.playback.running,
      say: (text) => this.hover.say(text),
    });
    this.editor = new SetupEditor({
      send: (pits) => this.session.send('arrange', { pits }), render, focusPit: (cell) => this.boardView.focusPit(cell),
    });
    this.prompt = new TurnPanel({ gameId, rejoin: () => this.session.restart(), decision: this.decision, editor: this.editor });
    this.players = new Players({ resign: () => this.session.send('resign', {}), render });
    this.impasse = new ImpassePanel({
      propose: () => this.session.send('impasse', {}),
      answer: (accept) => this.session.send('impasse_answer', { accept }),
      render,
    });
    this.playback = new Playback({
      board: () => this.boardView.board,
      speed: () => this.boardView.speed,
      reviewing: () => this.history.review !== null,
      setAnimating: (on) => {
        this.boardView.setAnimating(on);
        this.prompt.dim(on);
      },
      begin: ({ ev, after, live }) => {
        announceEvent(ev, after);
        if (ev.t === 'played') {
          this.lastLaps = ev.d.laps;
          this.hover.say('');
        }
        if (ev.t === 'steal') this.clocks.stealOpened(live);
        if (ev.t === 'undone') {
          // The relay took back an entry: its laps are not the last any more, and a move
          // under review may be gone.
          this.lastLaps = [];
          this.hover.say('');
          if (this.history.review !== null && this.history.review >= after.history.length) this.history.review = null;
        }
        if (ev.t === 'arranged' && ev.d.late && live && ev.d.by === after.you) {
          this.editor.picked = null;
          toast('Your time to arrange ran out: you were given the outer row (4 seeds in each outer pit).', 'error');
        }
      },
      show: ({ after }) => {
        const latest = this.session.snap || after;
        this.shown = { ...after, seats: mergeSeats(after, latest), spectators: latest.spectators };
        this.render();
      },
      render,
    });
    /** How to play this game (its ruleset is known with the first snapshot). */
    this.howtoLink = h('a', { href: '/howto/omweso', 'data-howto-link': true }, 'How to play');
    /** Under the board: the hover line and the skip button. */
    this.toolbar = h('div', { class: 'board-toolbar' }, this.hover.el, this.boardView.skipButton);
    /** Says that a relayed game is played on a wooden board, its moves entered by a relay. */
    this.relayNote = h('p', { class: 'notice relayed-note', 'data-relayed-note': true, hidden: true },
      'Played on a wooden board: the moves are entered here by the table\'s relay as they are sown.');
    /** The page's one level-one heading, for screen readers: the game and its players. */
    this.heading = h('h1', { class: 'sr-only', id: 'game-title' }, 'Omweso game');
    this.buildLayout();
    window.setInterval(() => {
      if (this.shown) this.clocks.update(this.shown);
      this.banner.tick();
    }, 100);
    // Tests reach the session through this (to cut the socket, read the resume URL).
    /** @type {any} */ (window).__omweso = {
      view: this,
      session: this.session,
      /** The game as drawn, once nothing is animating or waiting (null before). */
      settled: () => {
        const snap = this.shown;
        const model = this.session.snap;
        if (!snap || !model || !this.playback.idle || this.busy || this.boardView.board?.animating) return null;
        if (snap.version !== model.version) return null;
        if (snap.pending_move && !snap.pending && snap.status === 'playing') return null; // the decision follows
        return {
          version: snap.version, status: snap.status, to_move: snap.to_move, you: snap.you, pending: snap.pending,
          position: snap.position, history: snap.history.length, spectators: snap.spectators,
          opening: snap.opening, steal_open: snap.clock.steal_open, outcome: snap.outcome,
          drawn: this.boardView.board?.svg.getAttribute('data-position') ?? null,
        };
      },
    };
  }

  /** Something the player did is on its way to the server. */
  get busy() {
    return this.moving || this.decision.sending || this.editor.sending;
  }

  async start() {
    if (!/^[0-9a-fA-F-]{36}$/.test(this.gameId)) {
      this.notFound();
      return;
    }
    // The socket first: on a slow line each round trip before it is a third of a second
    // more before the board (the socket's own refusal says when there is no game).
    this.session.connect();
    // A session is not needed to watch; it is looked up (without asking) to know the name,
    // and the game probed for a server clock far off ours, beside the socket.
    if (await currentSession()) {
      const { missing, skew } = await probeGame(this.gameId);
      if (missing) {
        this.notFound();
        return;
      }
      if (Math.abs(skew) > 2000) this.session.clockOffset = skew;
    }
  }

  /** Sockets keep being refused: if the server answers, there is no such game. */
  async checkRefused() {
    if (!this.session.snap && await serverAnswers()) this.notFound();
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
    const { players, boardView } = this;
    document.title = 'Omweso — game';
    this.root.classList.add('game');
    replace(this.root,
      this.heading,
      this.banner.el,
      h('div', { class: 'game-layout' },
        h('div', { class: 'game-main' },
          players.topCard,
          h('div', { class: 'board-area' }, boardView.wrap, boardView.badge, this.history.bar,
            this.toolbar),
          players.bottomCard,
          players.outcomeBox,
          this.finished.el,
          this.relayNote,
          this.prompt.el,
          this.impasse.el),
        h('aside', { class: 'game-side' },
          h('section', { class: 'panel' }, players.infoBox,
            h('div', { class: 'settings' },
              h('label', { for: 'anim-speed' }, 'Sowing animation '), boardView.speedSelect, ' ', boardView.flipButton),
            h('p', { class: 'game-links small' }, this.howtoLink, h('a', { href: '/' }, 'Lobby'))),
          this.history.panel,
          h('section', { class: 'panel' }, players.resignBox,
            h('details', { class: 'announce-details' }, h('summary', {}, 'Commentary'),
              h('ol', { id: 'announce-log', class: 'small' }))))),
    );
  }

  // ---- from the session ---------------------------------------------------------------

  /** A fresh snapshot: whatever was animating is out of date. @param {Snapshot} snap */
  onState(snap) {
    this.playback.reset();
    this.shown = snap;
    this.lastLaps = [];
    this.render();
  }

  /** Connections and watchers changed. @param {Snapshot} snap */
  onCrowd(snap) {
    const shown = this.shown;
    if (!shown) return;
    this.players.seen(shown, snap);
    this.shown = { ...shown, seats: mergeSeats(shown, snap), spectators: snap.spectators };
    this.players.renderCards(this.shown, this.boardView.viewSide(this.shown));
    this.players.renderInfo(this.shown);
    this.clocks.update(this.shown);
  }

  // ---- drawing --------------------------------------------------------------------------

  render() {
    const snap = this.shown;
    if (!snap) return;
    document.title = this.title(snap);
    const rules = RULESET_NAMES[snap.ruleset] || 'Omweso';
    if (this.howtoLink.textContent !== `How to play ${rules}`) {
      this.howtoLink.textContent = `How to play ${rules}`;
      this.howtoLink.setAttribute('href', `/howto/${snap.ruleset}`);
    }
    const heading = this.headingText(snap);
    if (this.heading.textContent !== heading) this.heading.textContent = heading;
    this.renderBoard(snap);
    this.relayNote.hidden = !snap.relayed;
    // Only a game being played animates turns: its toolbar keeps room for the skip button.
    this.toolbar.classList.toggle('live', snap.status === 'playing');
    this.players.renderCards(snap, this.boardView.viewSide(snap));
    const last = this.lastLaps[this.lastLaps.length - 1];
    this.prompt.render(snap, { reviewing: this.history.review !== null, hand: last || null });
    this.impasse.render(snap, { reviewing: this.history.review !== null });
    this.players.renderOutcome(snap);
    this.finished.render(snap);
    this.announceTurn(snap);
    this.history.renderList(snap);
    this.players.renderInfo(snap);
    this.players.renderResign(snap);
    this.clocks.update(snap);
  }

  /**
   * Says "Your turn" (with the referee's count, when there is one) once each time a turn
   * becomes the player's, once it is drawn - not on every redraw.
   * @param {Snapshot} snap
   */
  announceTurn(snap) {
    const mine = snap.status === 'playing' && snap.to_move === snap.you && myTurn(snap);
    const key = mine ? `${snap.history.length}:${snap.to_move}` : '';
    if (key === this.turnSaid) return;
    this.turnSaid = key;
    if (!mine) return;
    const r = snap.time_control.referee_seconds;
    announce(r == null ? 'Your turn.' : `Your turn: ${r} s referee count.`);
  }

  /** @param {Snapshot} snap */
  title(snap) {
    const rules = RULESET_NAMES[snap.ruleset] || 'Omweso';
    if (snap.status === 'finished' || snap.status === 'annulled') return `Game over — ${rules}`;
    if (myTurn(snap) || myDecision(snap)) return `● Your move — ${rules}`;
    return `${rules} — ${snap.seats.s?.name || '?'} vs ${snap.seats.n?.name || '?'}`;
  }

  /** The heading: "Omweso game: Kato vs Nakato". @param {Snapshot} snap */
  headingText(snap) {
    const rules = RULESET_NAMES[snap.ruleset] || 'Omweso';
    return `${rules} game: ${snap.seats.s?.name || 'a free seat'} vs ${snap.seats.n?.name || 'a free seat'}`;
  }

  /** The board: what it shows besides the snapshot. @param {Snapshot} snap */
  renderBoard(snap) {
    const decision = this.decision.isOpen(snap);
    this.history.renderBar(snap);
    this.boardView.draw(snap, {
      reviewed: this.history.reviewed(snap),
      setup: snap.position ? null : this.editor.position(snap),
      editable: this.editor.editable(snap),
      picked: this.editor.picked,
      preview: this.decision.boardPreview(snap),
      lastLaps: this.lastLaps,
      // Mweiso's pit choice can be made on the board too.
      legal: decision ? (snap.pending || []).filter((o) => cellOf(snap.ruleset, o) >= 0) : this.busy ? [] : myStarts(snap),
    });
  }

  // ---- moving -----------------------------------------------------------------------------

  /** A pit (or clockwise control) was chosen on the board. @param {string} token */
  onPit(token) {
    const snap = this.shown;
    if (!snap || this.busy || this.history.review !== null) return;
    if (this.decision.isOpen(snap) && (snap.pending || []).includes(token)) {
      this.decision.decide(token);
      return;
    }
    if (myStarts(snap).includes(token)) this.sendMove(token);
  }

  /** @param {string} token */
  async sendMove(token) {
    this.moving = true;
    this.boardView.board?.setLegal([]);
    this.hover.say(`Sowing ${token.replace("'", ' clockwise')}…`);
    try {
      await this.session.send('move', { move: token });
      this.hover.say('');
    } catch (e) {
      this.hover.say('');
      toast(errorText(e), 'error');
      announce(`Move refused: ${errorText(e)}`);
    } finally {
      this.moving = false;
      if (!this.playback.running) this.render();
    }
  }
}
