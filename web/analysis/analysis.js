// The analysis board (`/analysis`): any position - typed in (`?ruleset=..&position=..`), a
// game's at a move (`?game=<id>&ply=<n>`, the game's file read once through its export:
// no seat, no socket, so a running game is not disturbed), or a game file's pasted or
// chosen (gamefile.js) - its legal pits lit from the
// server's answer, moves played by clicking and animated lap by lap as in a game,
// decisions answered with their previews (game/decision.js), the line of positions with back
// and forward (analysisline.js), and the engine's best move, score and line
// (enginepanel.js). No rules here: every legal move, lap and position is the server's
// (`/api/analysis/...`, docs/protocol.md).
//
// Over 600 lines, and left so: it is one class, the page's controller, whose methods share
// the line, the decision waiting and the busy flag; what stands alone is already apart (the
// line: analysisline.js, the engine: enginepanel.js, the form: positionform.js, decisions:
// game/decision.js).

import { api } from '../core/api.js';
import { BoardView } from '../board/boardview.js';
import { DecisionPanel } from '../game/decision.js';
import { EnginePanel } from './enginepanel.js';
import { describeStart } from '../game/hoverline.js';
import { Line, rootNode, nodeOfAnswer, endedView } from './analysisline.js';
import { GameFileForm, lineOfReport, budgetOfRecord, exportedGame, readGameFile, tagOf } from './gamefile.js';
import { RULESET_NAMES } from '../core/words.js';
import { PositionForm, RULESETS, STARTS } from './positionform.js';
import { cellOf, parsePosition, sideName, describeOutcome, summarizeLaps, other } from '../board/notation.js';
import { animateLaps, checkLaps } from '../board/playback.js';
import { readerSession } from '../core/session.js';
import { h, replace, announce, errorText, SPEEDS } from '../core/ui.js';

/** @typedef {import('../board/notation.js').Side} Side */
/** @typedef {import('../board/notation.js').Ruleset} Ruleset */
/** @typedef {import('../board/notation.js').Lap} Lap */
/** @typedef {import('../game/model.js').StartResult} StartResult */
/** @typedef {import('./analysisline.js').LineNode} LineNode */
/** @typedef {import('./analysisline.js').PlayAnswer} PlayAnswer */
/** @typedef {import('./analysisline.js').PositionView} PositionView */
/** @typedef {import('./enginepanel.js').SearchAnswer} SearchAnswer */

/**
 * Mounts the analysis board.
 * @param {HTMLElement} root
 * @param {URLSearchParams} params
 */
export async function mountAnalysis(root, params) {
  const view = new AnalysisView(root);
  await view.start(params);
  return view;
}

class AnalysisView {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {Ruleset} */
    this.ruleset = 'omweso';
    /** @type {Line} */
    this.line = new Line([rootNode(STARTS.omweso, null)]);
    /** @type {number | null} the game's sowing budget, when analysing a game */
    this.budget = null;
    /** @type {{answer: PlayAnswer, version: number} | null} a move waiting at a decision */
    this.pending = null;
    this.decisionVersion = 0;
    /** A move or a question is on its way, or a turn is being animated. */
    this.busy = false;
    /** A game's line is shown (from this server or a file), not a position typed in. */
    this.fromGame = false;
    this.boardView = new BoardView({
      onActivate: (token) => this.onPit(token),
      onAdjust: () => {},
      onMoveSeed: () => {},
      attach: (svg) => this.attachHover(svg),
      flip: () => this.render(),
    });
    this.decision = new DecisionPanel({
      snap: () => this.decisionSnap(),
      render: () => this.render(),
      renderBoard: () => this.renderBoard(),
      send: (choice) => this.answer(choice),
      running: () => this.busy,
      say: (text) => this.say(text),
      winText: (winner) => `${sideName(winner)} wins`,
    });
    this.engine = new EnginePanel({
      ask: (millis, side) => this.search(millis, side),
      playLine: (upTo) => this.playLine(upTo),
      changed: () => this.render(),
    });
    this.heading = h('h1', { class: 'analysis-title', id: 'analysis-title' }, 'Analysis board');
    this.source = h('p', { class: 'analysis-source small' });
    this.status = h('p', { class: 'analysis-status', 'data-analysis-status': true });
    this.hoverLine = h('p', { class: 'hover-line muted small', id: 'hover-preview' });
    this.prompt = h('div', { class: 'turn-panel analysis-decision', hidden: true });
    this.lineList = h('ol', { class: 'history-list analysis-line', id: 'analysis-line' });
    this.back = h('button', {
      type: 'button', class: 'button secondary small', 'data-line-back': true, title: 'The previous position',
      onclick: () => this.step(-1),
    }, '◀ Back');
    this.forward = h('button', {
      type: 'button', class: 'button secondary small', 'data-line-forward': true, title: 'The next position, its move sown',
      onclick: () => this.step(1),
    }, 'Forward ▶');
    this.form = new PositionForm((ruleset, position) => this.analyseTyped(ruleset, position));
    this.gameFile = new GameFileForm((report) => this.openFileGame(report));
    this.buildLayout();
    /** @type {any} */ (window).__omwesoAnalysis = {
      view: this,
      /** What the board shows once nothing is moving (null while busy or animating). */
      settled: () => {
        const board = this.boardView.board;
        if (this.busy || !board || board.animating || this.engine.thinking !== null) return null;
        const node = this.line.current;
        return {
          ruleset: this.ruleset, position: node.position, cursor: this.line.cursor, nodes: this.line.nodes.length,
          moves: this.line.nodes.slice(1).map((n) => n.move), pending: this.pending?.answer.decision?.options ?? null,
          drawn: board.svg.getAttribute('data-position'), legal: this.legalTokens(),
        };
      },
    };
  }

  // ---- set-up -------------------------------------------------------------------------------

  /** @param {URLSearchParams} params */
  async start(params) {
    document.title = 'Omweso — analysis';
    this.render();
    // The analysis calls need a session, not a name: a visitor analyses as a nameless guest.
    await readerSession();
    const gameId = params.get('game');
    if (gameId) {
      await this.openGame(gameId, Number(params.get('ply') ?? 'NaN'));
      return;
    }
    const ruleset = /** @type {Ruleset} */ (params.get('ruleset') || 'omweso');
    const position = params.get('position') || STARTS[RULESETS.includes(ruleset) ? ruleset : 'omweso'];
    const maxSeeds = Number(params.get('max_seeds'));
    this.budget = Number.isInteger(maxSeeds) && maxSeeds > 0 ? maxSeeds : null;
    await this.openPosition(RULESETS.includes(ruleset) ? ruleset : 'omweso', position);
  }

  /**
   * A game of this server, read once through its export (its game file, replayed by the
   * server), at move `ply`.
   * @param {string} gameId @param {number} ply
   */
  async openGame(gameId, ply) {
    /** @type {import('./gamefile.js').GameReport | undefined} */
    let report;
    try {
      [report] = await readGameFile(await exportedGame(gameId));
    } catch (e) {
      this.form.showError(`That game could not be read: ${errorText(e)}`);
      return;
    }
    if (!report || !this.openReport(report, ply)) {
      this.form.showError(`That game could not be read: ${report?.error || 'it has no moves to show'}`);
      return;
    }
    const { record } = report;
    const players = `${tagOf(record, 'South') || '?'} vs ${tagOf(record, 'North') || '?'}`;
    const live = record.result === '*' ? ' (not over: read once, as it stood when this page opened)' : '';
    replace(this.source, 'From the game ', h('a', { href: `/g/${encodeURIComponent(gameId)}`, 'data-analysis-game': gameId }, players), live, '.');
    await this.showCurrent();
  }

  /**
   * A game of a file pasted or chosen: its moves become the line, from its start.
   * @param {import('./gamefile.js').GameReport} report
   */
  async openFileGame(report) {
    if (this.busy || !this.openReport(report, 0)) return;
    const { record } = report;
    const event = tagOf(record, 'Event');
    replace(this.source, 'From a game file: ',
      h('span', { 'data-analysis-file': true }, `${tagOf(record, 'South') || '?'} vs ${tagOf(record, 'North') || '?'}`),
      event ? ` (${event})` : '', `, ${record.result}.`);
    const anim = new URLSearchParams(location.search).get('anim');
    history.replaceState(null, '', `/analysis${anim !== null ? `?anim=${anim}` : ''}`);
    await this.showCurrent();
    announce(`The game file’s ${record.moves.length} moves are the line; step through them with Forward.`);
  }

  /**
   * A read game as the line, showing `ply`.
   * @param {import('./gamefile.js').GameReport} report @param {number} ply
   * @returns {boolean} whether it could be shown
   */
  openReport(report, ply) {
    const line = lineOfReport(report, ply);
    if (!line) return false;
    this.fromGame = true;
    this.ruleset = report.record.ruleset;
    this.budget = budgetOfRecord(report.record);
    this.line = line;
    this.pending = null;
    this.form.ruleset.value = this.ruleset;
    this.form.showError('');
    return true;
  }

  /**
   * A typed-in position: checked by the server (a refusal is shown in words).
   * @param {Ruleset} ruleset @param {string} position
   * @returns {Promise<boolean>} whether the server took it
   */
  async openPosition(ruleset, position) {
    /** @type {PositionView} */
    let view;
    try {
      view = await api('POST', '/api/analysis/legal', this.ask(ruleset, position, null));
    } catch (e) {
      this.form.showError(`That position was refused: ${errorText(e)}`);
      return false;
    }
    this.ruleset = ruleset;
    this.fromGame = false;
    this.pending = null;
    replace(this.source, '');
    this.line = new Line([{ ...rootNode(view.position, view.akakyala || null), view }]);
    this.form.ruleset.value = ruleset;
    this.form.input.value = view.position;
    this.form.showError('');
    this.render();
    return true;
  }

  /**
   * The body of an analysis call about `position`.
   * @param {Ruleset} ruleset @param {string} position @param {import('./analysisline.js').CaptureHistory | null} akakyala
   * @param {Record<string, unknown>} [extra]
   */
  ask(ruleset, position, akakyala, extra = {}) {
    /** @type {Record<string, unknown>} */
    const body = { ruleset, position, ...extra };
    if (this.budget !== null) body.max_seeds = this.budget;
    if (akakyala) body.akakyala = akakyala;
    return body;
  }

  /**
   * "Analyse" in the form: the position typed in, from the start of a line of its own.
   * @param {Ruleset} chosen @param {string} position
   */
  async analyseTyped(chosen, position) {
    this.budget = null;
    if (await this.openPosition(chosen, position)) {
      const anim = new URLSearchParams(location.search).get('anim');
      history.replaceState(null, '', `/analysis?ruleset=${chosen}&position=${encodeURIComponent(this.line.current.position)}${anim !== null ? `&anim=${anim}` : ''}`);
      announce(`Analysing the position typed in: ${describeToMove(this.line.current.view)}.`);
    }
  }

  buildLayout() {
    const { boardView } = this;
    this.root.classList.add('game', 'analysis');
    replace(this.root,
      h('div', { class: 'game-layout' },
        h('div', { class: 'game-main' },
          this.heading,
          this.source,
          this.status,
          h('div', { class: 'board-area' }, boardView.wrap, boardView.badge,
            h('div', { class: 'board-toolbar' }, this.hoverLine, boardView.skipButton)),
          h('div', { class: 'line-nav', role: 'group', 'aria-label': 'The line' }, this.back, this.forward),
          this.prompt),
        h('aside', { class: 'game-side' },
          this.engine.el,
          h('section', { class: 'panel', 'aria-labelledby': 'line-title' },
            h('h2', { id: 'line-title' }, 'Moves'),
            h('p', { class: 'muted small' }, 'Select a move to see the position after it; ← and → step through them.'),
            this.lineList),
          h('section', { class: 'panel' },
            h('div', { class: 'settings' },
              h('label', { for: 'anim-speed' }, 'Sowing animation '), boardView.speedSelect, ' ', boardView.flipButton)),
          this.form.el,
          this.gameFile.el)));
    this.lineList.addEventListener('keydown', (ev) => {
      if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
        ev.preventDefault();
        this.step(ev.key === 'ArrowLeft' ? -1 : 1).then(() => this.focusCurrent());
      }
    });
  }

  // ---- the line -----------------------------------------------------------------------------

  /** Shows the line's current node, asking the server about it first if needed. */
  async showCurrent() {
    await this.ensureView(this.line.cursor);
    this.render();
  }

  /** @param {number} i */
  async ensureView(i) {
    const node = this.line.nodes[i];
    if (!node || node.view) return;
    this.busy = true;
    this.render();
    try {
      /** @type {PositionView} */
      const view = await api('POST', '/api/analysis/legal', this.ask(this.ruleset, node.position, node.akakyala));
      this.line.nodes[i] = { ...node, view: endedView(view, node.over) };
    } catch (e) {
      this.say(`The server could not read this position: ${errorText(e)}`);
    } finally {
      this.busy = false;
    }
  }

  /**
   * Back or forward one position; forward animates the move.
   * @param {number} delta
   */
  async step(delta) {
    if (this.busy || this.pending) return;
    const from = this.line.cursor;
    const to = from + delta;
    if (to < 0 || to >= this.line.nodes.length) return;
    if (delta !== 1) {
      this.line.go(to);
      await this.showCurrent();
      this.announceNode();
      return;
    }
    const before = this.line.nodes[from];
    let node = this.line.nodes[to];
    if (!node.laps && node.move && !node.stolen) {
      // A game's move: played out again (laps to animate, and what follows it).
      this.busy = true;
      try {
        /** @type {PlayAnswer} */
        const answer = await api('POST', '/api/analysis/play', this.ask(this.ruleset, before.position, before.akakyala, { move: node.move }));
        node = { ...node, laps: answer.laps, lapsOmitted: Boolean(answer.laps_omitted), view: answer.pending ? node.view : endedView(answer.after, node.over) };
        this.line.nodes[to] = node;
      } catch (e) {
        this.say(`The server could not play ${node.move}: ${errorText(e)}`);
      } finally {
        this.busy = false;
      }
    }
    this.line.go(to);
    if (node.laps) await this.animate(before.position, node.laps, node.lapsOmitted ? null : node.position);
    await this.showCurrent();
    this.announceNode();
  }

  /** @param {number} i */
  async goTo(i) {
    if (this.busy || this.pending) return;
    this.line.go(i);
    await this.showCurrent();
    this.announceNode();
  }

  focusCurrent() {
    const el = this.lineList.querySelector(`[data-line-index="${this.line.cursor}"]`);
    if (el instanceof HTMLElement) el.focus();
  }

  announceNode() {
    const node = this.line.current;
    const what = node.move ? `After ${sideName(/** @type {Side} */ (node.by))}’s ${node.move}` : 'The position analysed from';
    announce(`${what}: ${describeToMove(node.view)}.`);
  }

  // ---- moves ----------------------------------------------------------------------------------

  /** The start tokens offered now: every side's that may move, or a decision's pits. */
  legalTokens() {
    if (this.pending) {
      return (this.pending.answer.decision?.options || []).filter((o) => cellOf(this.ruleset, o) >= 0);
    }
    if (this.busy) return [];
    return this.startResults().map((r) => r.start);
  }

  /** @returns {StartResult[]} */
  startResults() {
    const legal = this.line.current.view?.legal;
    return [...(legal?.s?.starts || []), ...(legal?.n?.starts || [])];
  }

  /** A pit (or clockwise control) was chosen on the board. @param {string} token */
  onPit(token) {
    if (this.busy) return;
    if (this.pending) {
      if ((this.pending.answer.decision?.options || []).includes(token)) this.decision.decide(token);
      return;
    }
    if (this.startResults().some((r) => r.start === token)) this.play(token);
  }

  /** Plays a start from the position shown. @param {string} token */
  async play(token) {
    const node = this.line.current;
    this.busy = true;
    this.say(`Sowing ${token.replace("'", ' clockwise')}…`);
    this.render();
    try {
      /** @type {PlayAnswer} */
      const answer = await api('POST', '/api/analysis/play', this.ask(this.ruleset, node.position, node.akakyala, { move: token }));
      await this.animate(node.position, answer.laps, answer.laps_omitted || answer.pending ? null : answer.after.position);
      this.took(answer);
    } catch (e) {
      this.say(`The move was refused: ${errorText(e)}`);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /**
   * The answer to a decision, sent again from the turn's start with the answers so far.
   * @param {string} choice
   */
  async answer(choice) {
    const pending = this.pending;
    if (!pending) return;
    const node = this.line.current;
    this.busy = true;
    try {
      /** @type {PlayAnswer} */
      const answer = await api('POST', '/api/analysis/play',
        this.ask(this.ruleset, node.position, node.akakyala, { move: `${pending.answer.move}/${choice}` }));
      this.pending = null;
      const whole = !answer.laps_omitted && !pending.answer.laps_omitted;
      const tail = whole ? answer.laps.slice(pending.answer.laps.length) : [];
      await this.animate(pending.answer.after.position, tail, whole && !answer.pending ? answer.after.position : null);
      this.took(answer);
    } catch (e) {
      // Nothing changed: the decision is asked again.
      this.pending = { ...pending, version: ++this.decisionVersion };
      throw e;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /** A move's answer: a decision to answer, or a new position in the line. @param {PlayAnswer} answer */
  took(answer) {
    const sowing = summarizeLaps(answer.laps, answer.laps_omitted);
    if (answer.pending && answer.decision) {
      this.pending = { answer, version: ++this.decisionVersion };
      this.say(`${answer.move}: ${sowing}; then a choice (${answer.decision.options.join(', ')}).`);
      announce(`${sideName(answer.by)} played ${answer.move}: ${sowing}. A choice: ${answer.decision.options.join(', ')}.`);
      return;
    }
    this.pending = null;
    this.line.play(nodeOfAnswer(answer));
    this.say('');
    announce(`${sideName(answer.by)} played ${answer.move}: ${sowing}. ${describeToMove(answer.after)}.`);
  }

  /**
   * Plays the engine's line up to move `upTo`, each move from the one before (only the
   * last is animated).
   * @param {number} upTo
   */
  async playLine(upTo) {
    const result = this.engine.result;
    if (this.busy || this.pending || !result || result.position !== this.line.current.position) return;
    this.busy = true;
    this.render();
    try {
      for (let i = 0; i <= upTo; i++) {
        const node = this.line.current;
        /** @type {PlayAnswer} */
        const answer = await api('POST', '/api/analysis/play',
          this.ask(this.ruleset, node.position, node.akakyala, { move: result.answer.pv[i].move }));
        if (i === upTo) await this.animate(node.position, answer.laps, answer.laps_omitted ? null : answer.after.position);
        this.took(answer);
        if (this.pending) break;
      }
    } catch (e) {
      this.say(`The line could not be played: ${errorText(e)}`);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /** @param {number} millis @param {Side | null} side @returns {Promise<SearchAnswer>} */
  search(millis, side) {
    const node = this.line.current;
    /** @type {Record<string, unknown>} */
    const extra = { millis };
    if (side) extra.side = side;
    return api('POST', '/api/analysis/search', this.ask(this.ruleset, node.position, node.akakyala, extra));
  }

  /**
   * Animates laps from `from` (at the chosen speed); then checks them against the
   * server's position when one is given.
   * @param {string} from @param {Lap[]} laps @param {string | null} expected
   */
  async animate(from, laps, expected) {
    const board = this.boardView.board;
    const speed = this.boardView.speed;
    const start = parsePosition(this.ruleset, from);
    if (board && laps.length && speed !== 'instant' && !document.hidden) {
      this.boardView.setAnimating(true);
      this.prompt.classList.add('dimmed');
      try {
        await animateLaps(board, start, laps, SPEEDS[speed]);
      } finally {
        this.boardView.setAnimating(false);
        this.prompt.classList.remove('dimmed');
      }
    }
    if (expected) checkLaps(/** @type {any} */ ({ ruleset: this.ruleset, position: from }), laps, expected);
  }

  // ---- the decision ---------------------------------------------------------------------------

  /**
   * The waiting decision as the decision panel reads a game's snapshot: the mover is the
   * viewer (the analyst plays both sides).
   * @returns {import('../game/model.js').Snapshot | null}
   */
  decisionSnap() {
    const pending = this.pending;
    if (!pending || !pending.answer.decision) return null;
    const d = pending.answer.decision;
    return /** @type {any} */ ({
      ruleset: this.ruleset, status: 'playing', you: d.by, to_move: d.by, version: pending.version,
      pending: d.options, pending_results: d.results, position: pending.answer.after.position,
    });
  }

  // ---- drawing --------------------------------------------------------------------------------

  /** @param {string} text */
  say(text) {
    this.hoverLine.textContent = text;
  }

  /** @param {SVGSVGElement} svg */
  attachHover(svg) {
    const show = (/** @type {Event} */ ev) => {
      const target = ev.target instanceof Element ? ev.target.closest('[data-pit][data-legal]') : null;
      if (!target || this.busy || this.pending) return;
      const result = this.startResults().find((r) => r.start === target.getAttribute('data-pit'));
      if (result) this.say(describeStart(result));
    };
    svg.addEventListener('pointerover', show);
    svg.addEventListener('focusin', show);
    svg.addEventListener('pointerleave', () => { if (!this.busy && !this.pending) this.say(''); });
  }

  /** The side at the bottom: the viewer's choice, else South. @returns {Side} */
  bottom() {
    const side = this.boardView.viewChoice || 's';
    this.boardView.bottom = side;
    this.boardView.flipButton.textContent = `View from ${sideName(other(side))}`;
    return side;
  }

  renderBoard() {
    const board = this.boardView.ensure(this.ruleset, this.bottom());
    if (board.animating) return;
    const snap = this.decisionSnap();
    board.clearHand();
    for (const mark of ['last-from', 'last-to', 'gain', 'loss', 'best']) board.mark(mark, []);
    board.svg.classList.remove('previewing');
    this.boardView.badge.hidden = true;
    if (this.pending && snap) {
      const during = this.pending.answer.after.position;
      const preview = this.decision.boardPreview(snap);
      const pos = parsePosition(this.ruleset, during);
      if (preview) {
        const after = parsePosition(this.ruleset, preview.position);
        board.setPosition(after);
        board.svg.removeAttribute('data-position');
        board.svg.classList.add('previewing');
        this.boardView.badge.hidden = false;
        this.boardView.badge.textContent = `Preview: the board after “${preview.option}”`;
        board.mark('gain', after.cells.flatMap((c, i) => (c > pos.cells[i] ? [i] : [])));
        board.mark('loss', after.cells.flatMap((c, i) => (c < pos.cells[i] ? [i] : [])));
        board.setLegal([]);
        return;
      }
      board.setPosition(pos, during);
      const laps = this.pending.answer.laps;
      const last = laps[laps.length - 1];
      if (last) {
        board.mark('last-from', [cellOf(this.ruleset, laps[0].from)]);
        if (last.kind === 'capture') board.showHand(cellOf(this.ruleset, last.from), last.captured);
      }
      board.setLegal(this.legalTokens());
      return;
    }
    const node = this.line.current;
    board.setPosition(parsePosition(this.ruleset, node.position), node.position);
    const laps = node.laps || [];
    const last = laps[laps.length - 1];
    if (last) {
      board.mark('last-from', [cellOf(this.ruleset, laps[0].from)]);
      board.mark('last-to', [cellOf(this.ruleset, last.to)]);
    }
    const best = this.engine.bestFor(node.position);
    if (best) board.mark('best', [cellOf(this.ruleset, best.split('/')[0].replace("'", ''))]);
    board.setLegal(this.legalTokens());
  }

  render() {
    const node = this.line.current;
    const rules = RULESET_NAMES[this.ruleset] || this.ruleset;
    const heading = `Analysis board: ${rules}`;
    if (this.heading.textContent !== heading) this.heading.textContent = heading;
    this.status.textContent = this.pending
      ? `${sideName(this.pending.answer.by)} is sowing ${this.pending.answer.move}: choose how the turn goes on.`
      : describeToMove(node.view, this.ruleset);
    this.renderBoard();
    this.renderPrompt();
    this.renderLine();
    this.back.disabled = this.busy || Boolean(this.pending) || !this.line.canBack;
    this.forward.disabled = this.busy || Boolean(this.pending) || !this.line.canForward;
    this.engine.render(node.position, this.pending ? null : node.view, this.busy || Boolean(this.pending));
    this.form.follow(this.ruleset, this.pending ? this.pending.answer.after.position : this.line.current.position);
  }

  renderPrompt() {
    const snap = this.decisionSnap();
    if (!snap || !this.decision.isOpen(snap)) {
      this.prompt.hidden = true;
      replace(this.prompt);
      return;
    }
    const laps = this.pending?.answer.laps || [];
    this.prompt.hidden = false;
    replace(this.prompt, this.decision.parts(snap, laps[laps.length - 1] || null));
  }

  renderLine() {
    const focused = this.lineList.contains(document.activeElement);
    const items = this.line.nodes.map((node, i) => h('li', {},
      h('button', {
        type: 'button', class: `history-move ${this.line.cursor === i ? 'current' : ''}`, 'data-line-index': i,
        'aria-current': this.line.cursor === i ? 'true' : false, disabled: this.busy || Boolean(this.pending),
        onclick: () => this.goTo(i),
      },
      i === 0
        ? h('span', { class: 'move-text' }, this.fromGame ? 'Start of the game' : 'Position analysed')
        : [h('span', { class: 'move-no' }, `${i}.`),
          h('span', { class: `move-side side-${node.by}` }, node.by === 's' ? 'S' : 'N'),
          h('span', { class: 'move-text' }, node.move || '')])));
    replace(this.lineList, items);
    if (focused) this.focusCurrent();
  }
}

/**
 * Who moves in a position, or how the game ended there.
 * @param {PositionView | null} view @param {string} [ruleset]
 */
function describeToMove(view, ruleset) {
  if (!view) return 'Reading the position…';
  if (view.outcome) {
    // Nobody moves in a finished position: its result, never "North to move".
    const { title, detail } = describeOutcome(view.outcome, sideName, ruleset, view.position);
    const head = /^(A|The) /.test(title) ? title[0].toLowerCase() + title.slice(1) : title;
    return `Game over: ${head}. ${detail}`;
  }
  if (view.to_move === null && view.opening.length === 2) return 'Mweiso’s opening: both players may sow their opening turn.';
  if (view.to_move) return `${sideName(view.to_move)} to move.`;
  return 'Nobody may move.';
}
