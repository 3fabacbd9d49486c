// The relay's page, `/t/<id>/relay/<round>/<table>` (docs/rules.md#57-over-the-board-play-and-relays):
// a phone held by whoever relays a wooden board's game to the site. Opened from the
// director's link (`#code=...`), it claims the table's relay, then shows the game's board
// big; a tap on a start pit enters that move, a decision's options are large buttons, and
// "Undo last entry" takes back the last one. Every entry goes to the tournament's relay
// API; the game itself comes back over the game's own socket, watched as a spectator like
// any page, so what the relay sees is what every spectator sees. Every refusal is shown
// in words where the relay is looking.

import { api } from '../core/api.js';
import { isMissingTournament } from '../tournament/missing.js';
import { ensureSession, readerSession } from '../core/session.js';
import { h, replace, announce, errorText, sleep } from '../core/ui.js';
import { RULESET_NAMES } from '../core/words.js';
import { BoardView } from '../board/boardview.js';
import { cellOf, describeOutcome, sideName, summarizeLaps } from '../board/notation.js';
import { GameSession } from '../game/gamesession.js';
import { ConnectionBanner } from '../game/connection.js';

/** @typedef {import('../game/model.js').Snapshot} Snapshot */
/** @typedef {import('../game/model.js').GameEvent} GameEvent */
/** @typedef {import('../board/notation.js').Side} Side */
/** @typedef {import('../board/notation.js').Lap} Lap */
/**
 * What the relay enters (`POST .../relay/act`).
 * @typedef {{kind: 'move', notation: string} | {kind: 'decide', choice: string}
 *   | {kind: 'arrange', side: Side, pits: number[]} | {kind: 'resign', side: Side} | {kind: 'undo'}} RelayAction
 */

/** A decision's answers on their buttons, and what each does. */
const OPTION_WORDS = /** @type {Record<string, [string, string]>} */ ({
  a: ['Anticlockwise', 'sow on the usual way'],
  c: ['Clockwise', 'sow clockwise from the same pit'],
  l: ['Leave them', 'leave the captured seeds and go on from the other hole'],
});

/** How often a page opened before its round started asks again for the table's game. */
const WAIT_FOR_ROUND_MS = 3000;

/** The arrangements offered at a tap, in the side's own pit order (0..7 its outer row). */
const ARRANGEMENTS = /** @type {[string, number[]][]} */ ([
  ['4 in each outer pit', [4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0]],
  ['2 in every pit', [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]],
]);

/**
 * Mounts the relay's page.
 * @param {HTMLElement} root
 * @param {{tournament: string, round: number, table: number}} where
 */
export async function mountRelay(root, where) {
  const page = new RelayPage(root, where);
  await page.start();
  return page;
}

/**
 * The side's player, by name and seat: "Kato (South)".
 * @param {Snapshot} snap @param {Side} side
 */
function called(snap, side) {
  const name = snap.seats[side]?.name;
  return name ? `${name} (${sideName(side)})` : sideName(side);
}

/**
 * What the relay enters next, in words (the line over the board).
 * @param {Snapshot} snap
 */
export function nextEntry(snap) {
  if (snap.status === 'finished' || snap.status === 'annulled') return 'The game is over.';
  if (snap.status === 'setup') {
    const side = !snap.arrangements.s ? 's' : 'n';
    return `Enter ${called(snap, side)}'s arrangement.`;
  }
  if (snap.pending && snap.to_move) return `${called(snap, snap.to_move)} chooses how to go on: tap their answer.`;
  if (snap.to_move) return `${called(snap, snap.to_move)} to move: tap the pit they start from.`;
  return 'Both players play their opening: tap the pit each starts from.';
}

/**
 * The start pits a relay may tap now: every side's that may start a turn (the side to
 * move; both in Mweiso's opening), as the server lists them.
 * @param {Snapshot} snap
 * @returns {string[]}
 */
export function relayStarts(snap) {
  if (snap.status !== 'playing' || snap.pending) return [];
  return [...(snap.legal?.s?.starts || []), ...(snap.legal?.n?.starts || [])].map((r) => r.start);
}

class RelayPage {
  /** @param {HTMLElement} root @param {{tournament: string, round: number, table: number}} where */
  constructor(root, where) {
    this.root = root;
    this.where = where;
    this.base = `/api/tournaments/${encodeURIComponent(where.tournament)}/tables/${where.round}/${where.table}/relay`;
    /** @type {GameSession | null} */
    this.session = null;
    /** An entry is on its way to the server. */
    this.sending = false;
    /** @type {Lap[]} the last move's laps, to mark where it started and ended */
    this.lastLaps = [];
    this.heading = h('h1', { class: 'relay-title' }, `Relay · table ${where.table}, round ${where.round}`);
    this.claim = h('p', { class: 'relay-claim small', 'data-relay-claim': true, role: 'status' });
    this.north = h('div', { class: 'relay-player north', 'data-relay-player': 'n' });
    this.south = h('div', { class: 'relay-player south', 'data-relay-player': 's' });
    this.next = h('p', { class: 'relay-next', 'data-relay-next': true });
    this.refusal = h('p', { class: 'relay-refusal', 'data-relay-refusal': true, role: 'alert' });
    this.decision = h('div', { class: 'relay-decision', 'data-relay-decision': true, hidden: true });
    this.arrange = h('div', { class: 'relay-arrange', 'data-relay-arrange': true, hidden: true });
    this.undoButton = h('button', {
      type: 'button', class: 'button secondary big relay-undo', 'data-relay-undo': true,
      onclick: () => this.act({ kind: 'undo' }),
    }, '↶ Undo last entry');
    this.last = h('p', { class: 'relay-last small muted', 'data-relay-last': true });
    this.resign = h('details', { class: 'relay-resign' }, h('summary', {}, 'A player resigns'));
    this.board = new BoardView({
      onActivate: (token) => this.onPit(token),
      onAdjust: () => {},
      onMoveSeed: () => {},
      attach: () => {},
      flip: () => this.render(),
    });
    this.banner = new ConnectionBanner(() => this.session?.reconnectNow());
    this.gameLink = h('a', { class: 'small', hidden: true }, 'The game page');
    document.title = `Relay · table ${where.table} — Omweso`;
    root.classList.add('relay-page');
    replace(root,
      this.banner.el,
      h('header', { class: 'relay-head' }, this.heading, this.claim),
      this.next,
      this.refusal,
      this.north,
      h('div', { class: 'relay-board' }, this.board.wrap),
      this.south,
      this.decision,
      this.arrange,
      h('div', { class: 'relay-actions' }, this.undoButton, this.board.flipButton),
      this.last,
      this.resign,
      h('p', { class: 'small' }, h('a', { href: `/t/${encodeURIComponent(where.tournament)}` }, 'The tournament'), ' · ', this.gameLink));
    window.setInterval(() => this.banner.tick(), 250);
    // The tests read the game as this page has it.
    /** @type {any} */ (window).__omwesoRelay = { page: this, snap: () => this.session?.snap || null };
  }

  async start() {
    const code = new URLSearchParams(location.hash.slice(1)).get('code');
    if (code) {
      // A guest is enough to relay, but a named one: the director's console and the
      // proposed sheet say who relays the table.
      await ensureSession('Your name, so that the director and the players see who relays this table. No account needed.');
      await this.claimWith(code);
    } else {
      // Back on the page (a reload): this device is the relay already, or only watches.
      await readerSession();
      this.claim.textContent = 'Entries are taken from this table\'s relay only.';
    }
    let gameId = await this.findGame();
    // Opened before the round started, or before anyone relays the table: the game comes
    // with the start, or with the relay.
    while (gameId === '') {
      await sleep(WAIT_FOR_ROUND_MS);
      gameId = await this.findGame();
    }
    if (!gameId) return;
    this.gameLink.setAttribute('href', `/g/${encodeURIComponent(gameId)}`);
    this.gameLink.hidden = false;
    this.session = new GameSession(gameId, {
      onState: () => {
        this.lastLaps = [];
        this.render();
      },
      onEvent: (ev) => this.onEvent(ev),
      onCrowd: () => {},
      onConnection: (state, info) => this.banner.update(state, info),
      onServerError: (code, message) => this.refuse(`${message} (${code})`),
    });
    this.session.connect();
  }

  /** Becomes the table's relay with the director's code. @param {string} code */
  async claimWith(code) {
    try {
      await api('POST', this.base, { code: code.replace(/[^0-9A-Za-z]/g, '') });
      this.claim.textContent = 'You are this table\'s relay: enter the moves as they are sown on the board.';
      this.claim.dataset.claimed = 'true';
      // The code is spent: a reload must not show it or send it again.
      history.replaceState(null, '', location.pathname + location.search);
    } catch (e) {
      this.claim.textContent = `This page could not become the table's relay: ${errorText(e)}. Ask the director for a new relay link.`;
      this.claim.dataset.claimed = 'false';
    }
  }

  /**
   * The table's game, from the tournament: '' while there is none yet (its round has not
   * started, or nobody relays it), null when there is no such tournament or it cannot be
   * read.
   * @returns {Promise<string | null>}
   */
  async findGame() {
    const { tournament, round, table } = this.where;
    try {
      const snap = await api('GET', `/api/tournaments/${encodeURIComponent(tournament)}`);
      const pairing = (snap.rounds || []).find((/** @type {any} */ r) => r.number === round)?.pairings
        ?.find((/** @type {any} */ p) => p.table === table);
      if (pairing?.game_id && pairing.board && !pairing.board.relayed) {
        // A board table has no game until it has a relay: nothing to follow yet.
        this.next.textContent = `Table ${table} has no relay yet: open the director's relay link to become it.`;
        return '';
      }
      if (pairing?.game_id) {
        const rules = RULESET_NAMES[snap.ruleset] || 'Omweso';
        this.heading.textContent = `Relay · table ${table}, round ${round} · ${rules}`;
        return pairing.game_id;
      }
      this.next.textContent = `Round ${round} has no game at table ${table} yet: the moves are entered once the director starts the round.`;
      return '';
    } catch (e) {
      const missing = isMissingTournament(e);
      this.next.textContent = missing ? 'No such tournament on this server: the link may be mistyped.' : `The tournament could not be read: ${errorText(e)}.`;
    }
    return null;
  }

  /** A game event: the laps of a move to mark, and the page drawn again. @param {GameEvent} ev */
  onEvent(ev) {
    if (ev.t === 'played') this.lastLaps = ev.d.laps;
    if (ev.t === 'undone' || ev.t === 'started') this.lastLaps = [];
    if (ev.t === 'undone') announce('The last entry was taken back.');
    this.render();
  }

  /** Shows a refusal in words, and says it. @param {string} text */
  refuse(text) {
    this.refusal.textContent = text;
    announce(`Refused: ${text}`);
    // On a phone the relay may be scrolled down to the buttons: the words come into view.
    this.refusal.scrollIntoView({ block: 'nearest' });
  }

  /** Sends an entry; its refusal is shown, its result comes over the game socket. @param {RelayAction} body */
  async act(body) {
    if (this.sending) return;
    this.sending = true;
    this.refusal.textContent = '';
    this.render();
    try {
      await api('POST', `${this.base}/act`, body);
    } catch (e) {
      this.refuse(errorText(e));
    } finally {
      this.sending = false;
      this.render();
    }
  }

  /** A pit tapped: the move starting there, or a decision's answer naming it. @param {string} token */
  onPit(token) {
    const snap = this.session?.snap;
    if (!snap || this.sending) return;
    if (snap.pending?.includes(token)) {
      this.act({ kind: 'decide', choice: token });
      return;
    }
    if (relayStarts(snap).includes(token)) this.act({ kind: 'move', notation: token });
  }

  render() {
    const snap = this.session?.snap;
    if (!snap) return;
    this.next.textContent = nextEntry(snap);
    this.north.textContent = `North · ${snap.seats.n?.name || '?'}`;
    this.south.textContent = `South · ${snap.seats.s?.name || '?'}`;
    this.north.classList.toggle('to-move', snap.to_move === 'n');
    this.south.classList.toggle('to-move', snap.to_move === 's');
    const pitOptions = (snap.pending || []).filter((o) => cellOf(snap.ruleset, o) >= 0);
    this.board.draw(snap, {
      reviewed: null, setup: null, editable: [], preview: null, lastLaps: this.lastLaps,
      legal: this.sending ? [] : snap.pending ? pitOptions : relayStarts(snap),
    });
    this.renderDecision(snap);
    this.renderArrange(snap);
    this.renderResign(snap);
    // Once the game is over its result is the table's entry: the tournament takes no undo.
    const over = snap.status === 'finished' || snap.status === 'annulled';
    this.undoButton.hidden = over;
    this.undoButton.disabled = this.sending;
    const lastMove = snap.history[snap.history.length - 1];
    this.last.textContent = lastMove
      ? `${snap.history.length} ${snap.history.length === 1 ? 'move' : 'moves'} entered; the last: ${called(snap, lastMove.by)} ${lastMove.move}.`
      : 'No move entered yet.';
    if (snap.outcome) {
      const { title } = describeOutcome(snap.outcome, (side) => called(snap, side), snap.ruleset, snap.position);
      this.next.textContent = `The game is over: ${title}. Its result waits for the players' initials on the tournament page; if it is wrong, they dispute it and the director settles it.`;
    }
    this.root.dataset.version = String(snap.version);
  }

  /** A decision's options as large buttons, with what each does. @param {Snapshot} snap */
  renderDecision(snap) {
    const options = snap.status === 'playing' ? snap.pending || [] : [];
    const appears = this.decision.hidden && options.length > 0;
    this.decision.hidden = options.length === 0;
    if (!options.length) {
      replace(this.decision);
      return;
    }
    const results = snap.pending_results || [];
    replace(this.decision,
      h('p', { class: 'relay-decision-title' }, `${called(snap, /** @type {Side} */ (snap.to_move))}'s answer:`),
      options.map((option) => {
        const [name, help] = OPTION_WORDS[option] || [`Go on from ${option}`, 'sow on from that pit'];
        const result = results.find((r) => r.choice === option);
        const detail = result ? `${help} — ${summarizeLaps(result.laps, result.laps_omitted)}` : help;
        return h('button', {
          type: 'button', class: 'button primary big relay-option', 'data-relay-option': option,
          disabled: this.sending, onclick: () => this.act({ kind: 'decide', choice: option }),
        }, h('span', { class: 'relay-option-name' }, name), h('span', { class: 'relay-option-help small' }, detail));
      }));
    // Under the board on a phone: brought into view when the turn stops at it.
    if (appears) this.decision.scrollIntoView({ block: 'nearest' });
  }

  /** A free setup: the side arranging, with arrangements at a tap or counts typed in. @param {Snapshot} snap */
  renderArrange(snap) {
    const side = snap.status === 'setup' ? (!snap.arrangements.s ? 's' : 'n') : null;
    this.arrange.hidden = !side;
    if (!side || this.arrange.dataset.side === side) return;
    this.arrange.dataset.side = side;
    const counts = Array.from({ length: 16 }, (_, i) => h('input', {
      type: 'number', min: '0', max: '32', inputmode: 'numeric', value: i < 8 ? '4' : '0',
      'aria-label': `${i < 8 ? 'outer' : 'inner'} row, pit ${(i % 8) + 1}`, 'data-arrange-pit': i,
    }));
    const pits = () => counts.map((input) => Number(/** @type {HTMLInputElement} */ (input).value) || 0);
    replace(this.arrange,
      h('p', {}, `${called(snap, side)} arranges their 32 seeds:`),
      h('div', { class: 'button-row' }, ARRANGEMENTS.map(([label, arrangement]) => h('button', {
        type: 'button', class: 'button secondary big', 'data-arrange-preset': label,
        onclick: () => this.act({ kind: 'arrange', side, pits: arrangement }),
      }, label))),
      h('details', {}, h('summary', {}, 'Another arrangement'),
        h('p', { class: 'small' }, 'Outer row'), h('div', { class: 'relay-counts' }, counts.slice(0, 8)),
        h('p', { class: 'small' }, 'Inner row'), h('div', { class: 'relay-counts' }, counts.slice(8)),
        h('button', {
          type: 'button', class: 'button primary big', 'data-arrange-send': true,
          onclick: () => this.act({ kind: 'arrange', side, pits: pits() }),
        }, 'Enter this arrangement')));
  }

  /** Resigning, for either player, behind a disclosure and a confirmation. @param {Snapshot} snap */
  renderResign(snap) {
    const playing = snap.status === 'playing' || snap.status === 'setup';
    this.resign.hidden = !playing;
    if (!playing || this.resign.dataset.names === `${snap.seats.s?.name}|${snap.seats.n?.name}`) return;
    this.resign.dataset.names = `${snap.seats.s?.name}|${snap.seats.n?.name}`;
    replace(this.resign, h('summary', {}, 'A player resigns'),
      h('div', { class: 'button-row' }, /** @type {Side[]} */ (['s', 'n']).map((side) => h('button', {
        type: 'button', class: 'button danger big', 'data-relay-resign': side,
        onclick: () => {
          if (window.confirm(`${called(snap, side)} resigns?`)) this.act({ kind: 'resign', side });
        },
      }, `${called(snap, side)} resigns`))));
  }
}
