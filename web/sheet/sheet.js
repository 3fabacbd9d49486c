// The sheet at the board, `/t/<id>/sheet/<round>/<table>` (docs/rules.md#57-over-the-board-play-and-relays):
// what a player standing by a wooden board sees on their phone after the game, opened from
// the QR code printed on the table's paper sheet. One player enters the result (who won,
// how, the seeds each captured: sheet/entryform.js); the other, opening the same page, sees
// it standing and initials it ("Initial (it is right)") or says it is wrong (a dispute with
// a reason, or their own entry); two entries that differ, or a dispute, wait for the
// director. The page follows the table live on the tournament's socket
// (tournament/tournamentstore.js: every board change comes as the whole round), and says
// every refusal in the server's words. A phone without a session gets a nameless guest
// (to read); a visitor who is not one of the table's players is told how to become them.

import { withSeedRating } from '../tournament/seedrating.js';
import { api } from '../core/api.js';
import { isMissingTournament, showMissingTournament } from '../tournament/missing.js';
import { readerSession } from '../core/session.js';
import { h, replace, announce, errorText } from '../core/ui.js';
import { RULESET_NAMES, RESULT_WORDS, formatPoints } from '../core/words.js';
import { TournamentStore } from '../tournament/tournamentstore.js';
import { BoardEntryForm, entryText, boardVictoryName, initialsText, linkEntryStyles } from './entryform.js';

/** @typedef {import('../tournament/tournamentstore.js').PairingView} PairingView */
/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */
/** @typedef {import('../tournament/tournamentstore.js').BoardEntryView} BoardEntryView */

/**
 * Mounts the sheet page of table `table` of round `round`.
 * @param {HTMLElement} root @param {string} id @param {number} round @param {number} table
 */
export async function mountSheet(root, id, round, table) {
  linkEntryStyles();
  // Reading needs a session: a phone that never came here gets a nameless guest, silently.
  const me = await readerSession();
  let store;
  try {
    store = await TournamentStore.open(id, me);
  } catch (e) {
    if (isMissingTournament(e)) {
      showMissingTournament(root, 'card sheet-page',
        h('p', {}, 'The link may be mistyped, or the tournament was never created on this server.'),
        h('p', {}, h('a', { href: '/' }, 'Back to the lobby')));
      return;
    }
    throw e;
  }
  new SheetPage(root, store, round, table);
}

/**
 * What the table is at, for the viewer: the page shows one of these.
 * @typedef {'no-round'|'not-started'|'online'|'bye'|'made'|'director'|'enter'|'waiting-other'|'to-initial'} Stage
 */

class SheetPage {
  /**
   * @param {HTMLElement} root @param {TournamentStore} store @param {number} round @param {number} table
   */
  constructor(root, store, round, table) {
    this.root = root;
    this.store = store;
    this.roundNumber = round;
    this.tableNumber = table;
    /** @type {BoardEntryForm | null} the entry being made, kept across redraws */
    this.form = null;
    /** The entry the form was made for (a new standing entry makes a new form). */
    this.formFor = '';
    /** Whether the player said the standing entry is wrong (the dispute's choices shown). */
    this.wrong = false;
    /** Whether the player chose to change their own entry, or to enter their own. */
    this.entering = false;
    this.reason = '';
    this.busy = false;
    /** The last refusal, in the server's words. */
    this.error = h('p', { class: 'form-error', role: 'alert', 'data-sheet-error': true });
    /** What is drawn, as text: an event about another table redraws nothing. */
    this.drawn = '';
    this.said = '';
    /** @type {Stage | ''} the stage last drawn */
    this.stageShown = '';
    this.body = h('div', { class: 'sheet-body' });
    this.title = h('h1', { id: 'sheet-title' });
    this.sub = h('p', { class: 'muted sheet-sub' });
    root.classList.add('sheet-page-root');
    replace(root, h('section', { class: 'card sheet-page', 'aria-labelledby': 'sheet-title', 'data-sheet-page': `${round}/${table}` },
      this.title, this.sub, this.body, this.error,
      h('p', { class: 'sheet-foot small' }, h('a', { href: `/t/${encodeURIComponent(store.id)}`, 'data-tournament-link': true }, 'The tournament: tables and standings'))));
    store.subscribe((kind) => {
      if (kind === 'board' || kind === 'presence') return;
      if (kind === 'connection') return;
      this.render();
    });
    this.render();
    // Tests read the page's stage and model through this.
    /** @type {any} */ (window).__omwesoSheet = { stage: () => this.stage().stage, snapshot: () => store.snapshot, store };
  }

  get snap() {
    return this.store.snapshot;
  }

  /** This table's round and pairing, if paired. */
  find() {
    const round = this.snap.rounds.find((r) => r.number === this.roundNumber) || null;
    const pairing = round?.pairings.find((p) => p.table === this.tableNumber) || null;
    return { round, pairing };
  }

  /**
   * Who this device is in the tournament: the snapshot's `you` (a player), else the named
   * session's person (a `state` frame read without a viewer says no `you`).
   * @returns {string | null}
   */
  you() {
    return this.snap.you || this.store.me?.player_id || null;
  }

  /** The viewer's place at the table: 0 the pairing's first, 1 its second, -1 neither. @param {PairingView} p */
  seat(p) {
    const you = this.you();
    if (!you) return -1;
    if (p.first === you) return 0;
    if (p.second === you) return 1;
    return -1;
  }

  /** @returns {{stage: Stage, round: RoundView | null, pairing: PairingView | null}} */
  stage() {
    const { round, pairing } = this.find();
    if (!round || !pairing) return { stage: 'no-round', round, pairing };
    if (!pairing.second) return { stage: 'bye', round, pairing };
    if (pairing.played_at !== 'board') return { stage: 'online', round, pairing };
    if (pairing.sheet) return { stage: 'made', round, pairing };
    if (round.status === 'paired' || !pairing.game_id) return { stage: 'not-started', round, pairing };
    const board = pairing.board;
    if (board?.waiting_for_director) return { stage: 'director', round, pairing };
    const standing = board?.entries[0];
    if (!standing) return { stage: 'enter', round, pairing };
    const you = this.you();
    if (you && standing.confirmed_by.includes(you)) return { stage: 'waiting-other', round, pairing };
    return { stage: 'to-initial', round, pairing };
  }

  /** @param {string | null | undefined} id */
  name(id) {
    return this.store.name(id);
  }

  render() {
    const { stage, round, pairing } = this.stage();
    // What the player had opened ("It is wrong", their own entry) belongs to the stage it
    // was opened in: the table moved on (initialled, settled), it closes.
    if (stage !== this.stageShown) {
      this.stageShown = stage;
      this.wrong = false;
      this.entering = false;
    }
    const signature = JSON.stringify([stage, pairing, round?.status, round?.closing, this.you(), this.isDirector(),
      this.wrong, this.entering, this.busy, this.snap.players.length]);
    if (signature === this.drawn) return;
    this.drawn = signature;
    const snap = this.snap;
    document.title = `Sheet, round ${this.roundNumber}, table ${this.tableNumber} — ${snap.name}`;
    this.title.textContent = `Round ${this.roundNumber}, table ${this.tableNumber}`;
    // A rated tournament's seed ratings beside the names (docs/ratings.md#rated-tournaments).
    const named = (/** @type {string} */ id) => withSeedRating(snap, id, this.name(id));
    const players = pairing && pairing.second ? `${named(pairing.first)} (moves first) v ${named(pairing.second)}` : '';
    this.sub.textContent = `${snap.name} · ${RULESET_NAMES[snap.ruleset] || snap.ruleset}${players ? ` · ${players}` : ''}`;
    if (stage !== this.said) {
      this.said = stage;
      const words = this.stageWords(stage, pairing);
      if (words) announce(words);
    }
    const active = document.activeElement;
    const key = active instanceof HTMLElement && this.root.contains(active) ? active.dataset.key : undefined;
    replace(this.body, this.draw(stage, round, pairing));
    this.body.dataset.stage = stage;
    if (key && !(document.activeElement && this.root.contains(document.activeElement) && document.activeElement !== document.body)) {
      /** @type {HTMLElement | null} */ (this.root.querySelector(`[data-key="${CSS.escape(key)}"]`))?.focus();
    }
  }

  isDirector() {
    return this.store.isDirector();
  }

  /** What a change of stage says aloud. @param {Stage} stage @param {PairingView | null} p */
  stageWords(stage, p) {
    if (!p) return '';
    const other = this.otherName(p);
    switch (stage) {
      case 'waiting-other': return this.otherWithoutDevice(p) ? `Your entry is sent. The director initials it for ${other}.` : `Your entry is sent. ${other} initials it.`;
      case 'to-initial': return 'The result is entered: check it, and initial it if it is right.';
      case 'director': return 'The entries differ, or one is disputed: the director settles the sheet.';
      case 'made': return 'The sheet is made.';
      default: return '';
    }
  }

  /**
   * Whether the viewer's opponent is a player the director added without a device: the
   * director initials for them. @param {PairingView} p
   */
  otherWithoutDevice(p) {
    const seat = this.seat(p);
    if (seat < 0) return false;
    const other = seat === 0 ? p.second : p.first;
    return Boolean(this.snap.players.find((pl) => pl.player_id === other)?.added_by_director);
  }

  /** The viewer's opponent's name (or "the other player"). @param {PairingView} p */
  otherName(p) {
    const seat = this.seat(p);
    if (seat === 0) return this.name(p.second);
    if (seat === 1) return this.name(p.first);
    return 'the other player';
  }

  /**
   * @param {Stage} stage @param {RoundView | null} round @param {PairingView | null} pairing
   * @returns {(Node | null)[]}
   */
  draw(stage, round, pairing) {
    if (!round || !pairing) {
      return [h('p', { class: 'sheet-state', 'data-sheet-state': stage }, `Round ${this.roundNumber} has no table ${this.tableNumber} (yet): check the number on the sheet, or see the tables on the tournament's page.`)];
    }
    if (stage === 'bye') {
      return [h('p', { class: 'sheet-state', 'data-sheet-state': stage }, `Table ${pairing.table} is ${this.name(pairing.first)}'s bye: no game, no sheet.`)];
    }
    if (stage === 'online') {
      return [h('p', { class: 'sheet-state', 'data-sheet-state': stage }, `Table ${pairing.table} is played online: the server fills in its sheet when the game ends.`),
        pairing.game_id ? h('a', { class: 'button primary big', href: `/g/${pairing.game_id}` }, 'Open the game') : null];
    }
    const seat = this.seat(pairing);
    const directs = this.isDirector();
    /** @type {(Node | null)[]} */
    const out = [];
    if (seat < 0 && stage !== 'made') out.push(this.notAPlayer(pairing, directs));
    if (pairing.board?.missing && stage !== 'made') {
      out.push(h('p', { class: 'notice sheet-missing', 'data-sheet-missing': true }, 'The round\'s time is up and this table has no sheet: the director adjudicates it. Enter the result now if the game is over.'));
    }
    if (pairing.board?.relayed && pairing.game_id) {
      out.push(h('p', { class: 'small' }, `A relay (${pairing.board.relay_name || 'someone'}) enters this table's moves: `, h('a', { href: `/g/${pairing.game_id}` }, 'watch the game')));
    }
    switch (stage) {
      case 'not-started':
        out.push(h('p', { class: 'sheet-state', 'data-sheet-state': stage }, `Round ${round.number} has not started: the sheet opens when the director starts it.`));
        break;
      case 'made':
        out.push(this.made(pairing, seat));
        break;
      case 'director':
        out.push(this.forDirector(pairing));
        break;
      case 'enter':
        out.push(h('p', { class: 'sheet-state', 'data-sheet-state': stage }, this.otherWithoutDevice(pairing)
          ? `After the game: enter the result. ${this.otherName(pairing)} has no phone: the director then initials it for them.`
          : 'After the game: enter the result. The other player then initials it on their phone.'));
        // A director's entry makes the sheet at once, even at their own table.
        if (seat >= 0 || directs) out.push(this.entryForm(pairing, null, directs));
        break;
      case 'waiting-other': {
        const standing = /** @type {BoardEntryView} */ (pairing.board?.entries[0]);
        // The viewer's own entry, or one they initialled (a relayed game's proposal).
        const own = standing.by === this.you() && !standing.from_relay;
        out.push(h('div', { class: 'sheet-state', 'data-sheet-state': stage },
          h('p', { class: 'sheet-headline' }, this.otherWithoutDevice(pairing)
            ? `Waiting for the director to initial it for ${this.otherName(pairing)}.`
            : `Waiting for ${this.otherName(pairing)}'s initials.`),
          this.entryCard(pairing, standing, own ? 'Your entry' : this.byWords(standing))));
        if (seat >= 0 && own) {
          if (this.entering) out.push(this.entryForm(pairing, standing, false));
          else {
            out.push(h('button', {
              type: 'button', class: 'button secondary', 'data-sheet-change': true, 'data-key': 'change',
              onclick: () => { this.entering = true; this.render(); },
            }, 'Change my entry'));
          }
        }
        break;
      }
      case 'to-initial': {
        const standing = /** @type {BoardEntryView} */ (pairing.board?.entries[0]);
        out.push(h('div', { class: 'sheet-state', 'data-sheet-state': stage }, this.entryCard(pairing, standing, this.byWords(standing))));
        if (seat >= 0) out.push(this.initialChoices(pairing, standing));
        else if (directs) out.push(this.entryForm(pairing, standing, true));
        break;
      }
      default:
        break;
    }
    return out;
  }

  /**
   * Who may enter this sheet, for a visitor who is not one of its players: how to become
   * that player on this phone.
   * @param {PairingView} p @param {boolean} directs
   */
  notAPlayer(p, directs) {
    if (directs) {
      return h('p', { class: 'notice', 'data-sheet-director': true }, 'You direct this tournament: a result you enter here makes the sheet at once.');
    }
    const here = location.pathname + location.search;
    return h('div', { class: 'notice sheet-not-player', 'data-sheet-state': 'not-player', role: 'region', 'aria-label': 'Not one of this table\'s players' },
      h('p', { class: 'notice-title' }, `This phone is not ${this.name(p.first)} or ${this.name(p.second)}: only the table's two players (or the director) enter its sheet.`),
      h('p', {}, 'If you are one of them: ',
        h('a', { href: `/account?next=${encodeURIComponent(here)}`, 'data-sheet-log-in': true }, 'log in'),
        ', or, if the director gave you a code for this device, ',
        h('a', { href: `/link?next=${encodeURIComponent(here)}`, 'data-sheet-link': true }, 'enter it here'),
        '. Then come back to this page.'));
  }

  /** Who made an entry: a player, or the relayed game's end. @param {BoardEntryView} entry */
  byWords(entry) {
    return entry.from_relay ? `Proposed by the relayed game (relayed by ${entry.by_name})` : `Entered by ${entry.by_name}`;
  }

  /**
   * One entry, large: who won, how, the seeds; who entered and who initialled it.
   * @param {PairingView} p @param {BoardEntryView} entry @param {string} by
   */
  entryCard(p, entry, by) {
    const ruleset = this.snap.ruleset;
    const initialled = initialsText(entry, (id) => this.name(id));
    return h('div', { class: 'entry-card', 'data-entry-by': entry.by },
      h('p', { class: 'entry-by small muted' }, by),
      h('p', { class: 'entry-result', 'data-entry-result': true }, entryText(entry, p, (id) => this.name(id), ruleset)),
      h('p', { class: 'small muted' }, initialled ? `Initialled by ${initialled}` : 'Not initialled yet'));
  }

  /**
   * The entry form (a new one when the entry it was made for changed).
   * @param {PairingView} p @param {BoardEntryView | null} from prefilled with @param {boolean} asDirector
   */
  entryForm(p, from, asDirector) {
    const key = `${p.table}:${from ? `${from.by}:${from.at_ms}` : ''}:${asDirector}`;
    if (!this.form || this.formFor !== key) {
      this.formFor = key;
      const snap = this.snap;
      this.form = new BoardEntryForm({
        ruleset: snap.ruleset,
        akakyala: Boolean(snap.settings.time_control.akakyala),
        first: { id: p.first, name: this.name(p.first) },
        second: { id: /** @type {string} */ (p.second), name: this.name(p.second) },
        prefix: 'sheet',
        sendLabel: asDirector ? 'Send (makes the sheet)' : 'Send',
        initial: from,
        adjudicate: asDirector,
        onSend: (body) => this.send(body, 'Your entry is sent.'),
      });
    }
    return h('div', { class: 'sheet-entry', role: 'region', 'aria-label': 'Enter the result' }, this.form.el);
  }

  /**
   * The other player's entry standing: "Initial (it is right)" or "It is wrong" (then a
   * dispute with a reason, or their own entry).
   * @param {PairingView} p @param {BoardEntryView} standing
   */
  initialChoices(p, standing) {
    if (this.entering) {
      return h('div', {},
        h('p', { class: 'small' }, 'Enter the result as you saw it. If it differs from the entry above, the director settles the sheet.'),
        this.entryForm(p, null, false),
        h('button', { type: 'button', class: 'button secondary', 'data-key': 'entering-cancel', onclick: () => { this.entering = false; this.render(); } }, 'Back'));
    }
    if (!this.wrong) {
      return h('div', { class: 'choice-row big-choices' },
        h('button', {
          type: 'button', class: 'button primary big', 'data-sheet-confirm': true, 'data-key': 'confirm', disabled: this.busy,
          onclick: () => this.post({ action: 'confirm' }, 'You initialled the sheet.'),
        }, 'Initial (it is right)'),
        h('button', {
          type: 'button', class: 'button danger big', 'data-sheet-wrong': true, 'data-key': 'wrong', disabled: this.busy,
          onclick: () => { this.wrong = true; this.render(); },
        }, 'It is wrong'));
    }
    const reason = h('textarea', {
      id: 'sheet-reason', rows: 2, maxlength: 500, 'data-key': 'reason',
      oninput: (/** @type {Event} */ ev) => { this.reason = /** @type {HTMLTextAreaElement} */ (ev.target).value; },
    });
    reason.value = this.reason;
    return h('div', { class: 'sheet-wrong' },
      h('p', {}, `What is wrong with ${standing.from_relay ? 'the proposed result' : `${standing.by_name}'s entry`}? Either enter the result as you saw it, or say why and let the director settle it.`),
      h('button', {
        type: 'button', class: 'button primary big', 'data-sheet-own': true, 'data-key': 'own',
        onclick: () => { this.entering = true; this.wrong = false; this.render(); },
      }, 'Enter my own result'),
      h('form', {
        class: 'dispute-form',
        onsubmit: (/** @type {SubmitEvent} */ ev) => {
          ev.preventDefault();
          const text = this.reason.trim();
          if (!text) {
            this.error.textContent = 'Say what is wrong: the director reads it.';
            reason.focus();
            return;
          }
          this.post({ action: 'dispute', reason: text }, 'Your dispute is sent: the director settles the sheet.');
        },
      },
      h('label', { for: 'sheet-reason' }, 'Or say why (the director settles it)'),
      reason,
      h('div', { class: 'button-row' },
        h('button', { type: 'submit', class: 'button secondary big', 'data-sheet-dispute': true, 'data-key': 'dispute', disabled: this.busy }, 'Send to the director'),
        h('button', { type: 'button', class: 'button secondary big', 'data-key': 'wrong-cancel', onclick: () => { this.wrong = false; this.render(); } }, 'Back'))));
  }

  /** The entries waiting for the director, side by side. @param {PairingView} p */
  forDirector(p) {
    const board = p.board;
    const entries = board?.entries || [];
    return h('div', { class: 'sheet-state', 'data-sheet-state': 'director' },
      h('p', { class: 'sheet-headline' }, 'Waiting for the director: the entries differ, or one is disputed.'),
      h('div', { class: 'entries-side' }, entries.map((e) => this.entryCard(p, e, e.from_relay ? this.byWords(e) : `${e.by_name} entered`))),
      board?.dispute ? h('p', { 'data-sheet-dispute-reason': true }, `${this.name(board.dispute.by)} says: “${board.dispute.reason}”`) : null,
      this.isDirector() && p.second ? this.entryForm(p, entries[0] || null, true) : null);
  }

  /** The sheet made: result, seeds, points, and who entered and initialled it. @param {PairingView} p @param {number} seat */
  made(p, seat) {
    const sheet = /** @type {import('../tournament/tournamentstore.js').SheetView} */ (p.sheet);
    const name = (/** @type {string | null} */ id) => this.name(id);
    const entries = p.board?.entries || [];
    const agreed = entries.find((e) => e.confirmed_by.length === 2);
    const how = sheet.status === 'corrected'
      ? 'Corrected by the director.'
      : agreed
        ? `${this.byWords(agreed)}, initialled by ${initialsText(agreed, name, agreed.from_relay ? undefined : agreed.by)}.`
        : 'Entered by the director.';
    const word = this.snap.ruleset === 'oware' ? 'Pieces taken' : 'Seeds captured';
    // The viewer's points on a line of their own: beside the seeds they read as seeds.
    const yours = seat >= 0 ? h('p', { 'data-sheet-made-points': true }, `Your points for this game: ${formatPoints(seat === 0 ? sheet.points.first : sheet.points.second)}.`) : null;
    return h('div', { class: 'sheet-state sheet-made', 'data-sheet-state': 'made' },
      h('p', { class: 'sheet-headline' }, 'The sheet is made.'),
      h('p', { class: 'entry-result', 'data-sheet-made-result': true }, madeText(p, sheet, name)),
      // An adjudication of Omweso or Mweiso: the seeds on each side it was decided on.
      h('p', { 'data-sheet-made-seeds': true }, sheet.seeds_on_board
        ? `Seeds on each side of the board: ${name(p.first)} ${sheet.seeds_on_board.first}, ${name(p.second)} ${sheet.seeds_on_board.second}.`
        : `${word}: ${name(p.first)} ${sheet.seeds.first}, ${name(p.second)} ${sheet.seeds.second}.`),
      yours,
      h('p', { class: 'small muted', 'data-sheet-made-how': true }, how, sheet.over_the_board ? ' Entered at the board.' : ''));
  }

  /** @param {import('./entryform.js').EnterBody} body @param {string} said */
  async send(body, said) {
    const ok = await this.post(body, said);
    if (ok) {
      this.entering = false;
      this.form = null;
      this.formFor = '';
      this.render();
    }
    return ok;
  }

  /**
   * Sends one action on this table's sheet; a refusal is shown in the server's words.
   * @param {object} body @param {string} said
   */
  async post(body, said) {
    if (this.busy) return false;
    this.busy = true;
    this.error.textContent = '';
    this.form?.refuse('');
    this.render();
    let ok = false;
    try {
      await api('POST', `/api/tournaments/${encodeURIComponent(this.store.id)}/tables/${this.roundNumber}/${this.tableNumber}/sheet`, body);
      ok = true;
      this.wrong = false;
      announce(said);
    } catch (e) {
      const text = `Not sent: ${errorText(e)}`;
      // Said once: under the form when it is on the page, else under the page.
      if (this.form?.el.isConnected) this.form.refuse(text);
      else this.error.textContent = text;
    } finally {
      this.busy = false;
    }
    if (ok) await this.store.refresh().catch(() => {});
    this.drawn = '';
    this.render();
    return ok;
  }
}

/**
 * A made sheet's result in words, with the points: "Kato won (no move) · 1–0".
 * @param {PairingView} p @param {import('../tournament/tournamentstore.js').SheetView} sheet
 * @param {(id: string | null) => string} name
 */
function madeText(p, sheet, name) {
  const won = (/** @type {string | null} */ r) => Boolean(r && /won$/.test(r));
  // The victory, unless the result says it already ("won on adjudication").
  const said = [sheet.first_result, sheet.second_result].some((r) => r && sheet.victory && r.startsWith(`${sheet.victory}-`));
  const victory = sheet.victory && !said ? ` (${boardVictoryName(sheet.victory)})` : '';
  let text;
  if (won(sheet.first_result)) text = `${name(p.first)} ${RESULT_WORDS[sheet.first_result] || 'won'}${victory}`;
  else if (won(sheet.second_result)) text = `${name(p.second)} ${RESULT_WORDS[sheet.second_result || ''] || 'won'}${victory}`;
  else text = `${RESULT_WORDS[sheet.first_result] || sheet.first_result}${victory}`.replace(/^drew/, 'Draw');
  return `${text} · ${formatPoints(sheet.points.first)}–${formatPoints(sheet.points.second)}`;
}
