// The console's score sheets: one round's sheets at a time (a select for the others), each
// game's players, result, free-setup arrangements, status (pending with its countdown,
// disputed and by whom, corrected) and history of corrections, with the buttons that open
// the correction form (correction.js).

import { api } from '../core/api.js';
import { h, errorText } from '../core/ui.js';
import { RESULT_WORDS, SHEET_STATUS_WORDS, VICTORY_NAMES, formatPoints } from '../core/words.js';
import { plural } from '../core/plural.js';
import { ConsolePart } from './part.js';
import { BoardEntryForm, entryText, initialsText } from '../sheet/entryform.js';
import { dayAndTime } from '../core/when.js';

/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */
/** @typedef {import('../tournament/tournamentstore.js').PairingView} PairingView */
/** @typedef {import('../tournament/tournamentstore.js').SheetView} SheetView */
/** @typedef {import('../tournament/tournamentstore.js').ResultView} ResultView */

/**
 * A sheet's result in words, with the points: "Kato won (no move) · 2–0". Pure (the names
 * come from `name`), so node's tests check it without a browser.
 * @param {PairingView} p
 * @param {SheetView | ResultView} sheet
 * @param {(id: string | null) => string} name a player's name
 * @param {boolean} [withPoints]
 */
export function resultText(p, sheet, name, withPoints = true) {
  const first = sheet.first_result;
  const second = sheet.second_result;
  // The victory, unless the result says it already (adjudicated-won, forfeit-won).
  const said = sheet.victory && [first, second].some((r) => r && r.startsWith(`${sheet.victory}-`));
  const victory = sheet.victory && !said ? ` (${VICTORY_NAMES[sheet.victory] || sheet.victory})` : '';
  let text;
  if (first === 'bye') text = `${name(p.first)}: bye`;
  else if (/won$/.test(first)) text = `${name(p.first)} ${RESULT_WORDS[first] || first}${victory}`;
  else if (second && /won$/.test(second)) text = `${name(p.second)} ${RESULT_WORDS[second] || second}${victory}`;
  else if (first === 'annulled') text = `annulled${victory}`;
  else text = `${RESULT_WORDS[first] || first}${victory}`.replace(/^drew/, 'draw');
  if (withPoints && 'points' in sheet) {
    text += p.second === null ? ` · ${formatPoints(sheet.points.first)}` : ` · ${formatPoints(sheet.points.first)}–${formatPoints(sheet.points.second)}`;
  }
  return text;
}

/**
 * A free setup's two arrangements on the sheet, as the players placed them: each player's
 * outer row then inner row, left to right from their own side, and which one the referee
 * placed when their time ran out.
 * @param {PairingView} p
 * @param {NonNullable<SheetView['arrangements']>} arrangements
 * @param {(id: string | null) => string} name
 */
function arrangementsLine(p, arrangements, name) {
  /** @param {number[]} counts @param {boolean} late @param {string | null} who */
  const one = (counts, late, who) => h('div', { class: 'small muted' },
    `${name(who)}: ${counts.slice(0, 8).join(' ')} | ${counts.slice(8).reverse().join(' ')}${late ? ' (time ran out: given the outer row)' : ''}`);
  return h('div', { 'data-arrangements': p.game_id || '' },
    one(arrangements.first, arrangements.late.first, p.first),
    one(arrangements.second, arrangements.late.second, p.second));
}

export class SheetsPart extends ConsolePart {
  /** @param {import('./console.js').DirectorConsole} owner */
  constructor(owner) {
    super(owner);
    /** @type {number | null} the round whose sheets are shown (null: the latest played) */
    this.sheetRound = null;
    /** @type {Set<string>} the sheets whose history of corrections is unfolded */
    this.unfolded = new Set();
    /** The round whose sheets are being drawn. */
    this.drawing = 0;
    /**
     * The board table whose result the director is entering, with its form (kept across
     * redraws: the choices made stay).
     * @type {{round: number, table: number, form: BoardEntryForm} | null}
     */
    this.entering = null;
  }

  /** The rounds whose games have started, and the one shown. */
  sheetRounds() {
    const rounds = this.snap.rounds.filter((r) => r.status !== 'paired');
    const shown = rounds.find((r) => r.number === this.sheetRound) || rounds[rounds.length - 1] || null;
    return { rounds, shown };
  }

  draw() {
    const { rounds, shown } = this.sheetRounds();
    if (!shown) return [h('p', { class: 'muted' }, 'Each game\'s score sheet appears here when it ends, once a round has started.')];
    const chooser = rounds.length > 1 ? h('div', { class: 'field inline director-sheet-round' },
      h('label', { for: 'sheets-round' }, 'Round'),
      h('select', {
        id: 'sheets-round', 'data-key': 'sheets-round', 'data-sheets-round': true,
        onchange: (/** @type {Event} */ ev) => {
          const value = Number(/** @type {HTMLSelectElement} */ (ev.target).value);
          const last = rounds[rounds.length - 1];
          this.sheetRound = last && value === last.number ? null : value;
          this.redraw(['sheets']);
        },
      }, rounds.map((r) => h('option', { value: r.number, selected: r.number === shown.number }, `Round ${r.number}${r.status === 'playing' ? ' (being played)' : ''}`)))) : null;
    /** @type {HTMLElement[]} */
    const rows = [];
    this.drawing = shown.number;
    for (const p of shown.pairings) {
      for (const old of p.replaced) rows.push(this.sheetRow(p, old.game_id, old.sheet, true));
      if (p.game_id || p.sheet) rows.push(this.sheetRow(p, p.game_id, p.sheet, false));
      else rows.push(this.sheetRow(p, null, null, false));
      const gameId = p.game_id;
      if (gameId && this.console.correction.correcting?.gameId === gameId && p.sheet) rows.push(this.console.correction.row(p, p.sheet));
      const entering = this.entering;
      if (entering && entering.round === shown.number && entering.table === p.table && !p.sheet) rows.push(this.enterRow(p, entering.form));
    }
    return [
      h('h4', { class: 'sr-only' }, `Round ${shown.number}`),
      this.missing(),
      chooser,
      h('div', { class: 'table-wrap' },
        h('table', { class: 'data-table director-sheets' },
          h('caption', { class: 'sr-only' }, `Score sheets of round ${shown.number}`),
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col', class: 'num' }, 'Table'), h('th', { scope: 'col' }, 'Players'),
            h('th', { scope: 'col' }, 'Result'), h('th', { scope: 'col' }, 'Sheet'),
            h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions')))),
          h('tbody', {}, rows))),
      h('p', { class: 'muted small' }, 'A sheet confirms itself 60 s after its game unless a player disputes it. Standings count every sheet as it stands. You may correct any sheet, or uphold a disputed one, with a reason: the original stays on record.'),
    ];
  }

  /**
   * One sheet's row (a game's; a bye's or a forfeit's without a game).
   * @param {PairingView} p
   * @param {string | null} gameId
   * @param {SheetView | null} sheet
   * @param {boolean} replaced an annulled game that a replay replaced
   */
  sheetRow(p, gameId, sheet, replaced) {
    const name = (/** @type {string | null} */ id) => this.store.name(id);
    const movedFirst = sheet?.moved_first || p.first;
    const players = p.second === null
      ? [h('span', {}, name(p.first)), h('span', { class: 'muted' }, ' — bye')]
      : [
        h('span', {}, name(p.first), movedFirst === p.first && gameId ? h('span', { class: 'muted small' }, ' (first)') : null),
        ' v ',
        h('span', {}, name(p.second), movedFirst === p.second && gameId ? h('span', { class: 'muted small' }, ' (first)') : null),
      ];
    const atBoard = p.played_at === 'board' && p.second !== null && !replaced;
    const boardWaits = atBoard && !sheet && gameId ? this.boardWaits(p) : null;
    const status = replaced ? 'replayed' : sheet ? sheet.status : boardWaits ? boardWaits.status : gameId ? 'playing' : 'waiting';
    /** @type {(string | Node | null)[]} */
    let statusCell;
    if (replaced) statusCell = ['annulled and replayed'];
    else if (boardWaits) statusCell = boardWaits.words;
    else if (!sheet) statusCell = [gameId ? 'being played' : 'not started'];
    else if (sheet.status === 'pending') {
      const confirmed = sheet.confirmed_by.map((id) => name(id));
      statusCell = ['pending', sheet.confirms_at ? h('span', { class: 'small muted' }, ': confirms itself in ', this.countdown(sheet.confirms_at)) : null,
        confirmed.length ? h('div', { class: 'small muted' }, `Confirmed by ${confirmed.join(' and ')}`) : null];
    } else if (sheet.status === 'disputed' && sheet.dispute) {
      statusCell = [h('strong', { class: 'director-disputed' }, 'disputed'), h('div', { class: 'small' }, `by ${name(sheet.dispute.by)}: “${sheet.dispute.reason}”`)];
    } else {
      statusCell = [SHEET_STATUS_WORDS[sheet.status] || sheet.status];
      if (sheet.dispute) statusCell.push(h('div', { class: 'small muted' }, `disputed by ${name(sheet.dispute.by)}: “${sheet.dispute.reason}”`));
    }
    const correctable = Boolean(!replaced && gameId && sheet && p.second !== null && sheet.game_id);
    const correcting = this.console.correction.correcting;
    const open = correcting?.gameId === gameId;
    // A board table's game exists on the site only when a relay follows it; else its page is the sheet's.
    const href = !gameId || replaced ? null
      : atBoard && !p.board?.relayed ? `/t/${encodeURIComponent(this.store.id)}/sheet/${this.drawing}/${p.table}` : `/g/${gameId}`;
    return h('tr', { 'data-sheet-row': gameId, 'data-bye-row': p.second === null ? p.table : null, 'data-table': p.table, 'data-status': status, 'data-played-at': atBoard ? 'board' : null, class: `sheet-${status}${replaced ? ' replaced' : ''}` },
      h('td', { class: 'num' }, href ? h('a', { href, 'aria-label': `Table ${p.table}: open ${href.startsWith('/g/') ? 'the game' : 'its sheet page'}` }, String(p.table)) : String(p.table)),
      h('td', {}, players, atBoard ? h('div', { class: 'small muted', 'data-board-mark': true }, p.board?.relayed ? `at the board, relayed${p.board.relay_name ? ` by ${p.board.relay_name}` : ''}` : 'at the board') : null),
      h('td', {},
        sheet ? this.resultWords(p, sheet) : '',
        sheet?.over_the_board ? h('div', { class: 'small muted', 'data-entered-at-board': true }, sheet.seeds_on_board
          ? `adjudicated at the board · seeds on each side ${sheet.seeds_on_board.first}–${sheet.seeds_on_board.second}`
          : `entered at the board · seeds ${sheet.seeds.first}–${sheet.seeds.second}`) : null,
        boardWaits ? this.boardEntries(p) : null,
        sheet?.arrangements ? arrangementsLine(p, sheet.arrangements, (id) => this.store.name(id)) : null,
        sheet && sheet.corrections.length ? this.corrections(p, sheet) : null),
      h('td', { 'data-sheet-status': status }, statusCell),
      h('td', { class: 'director-sheet-actions' },
        boardWaits ? this.boardActions(p) : null,
        correctable && gameId && sheet ? [
          this.button(`correct:${gameId}`, {
            'data-correct': gameId, 'aria-expanded': String(open && correcting?.result !== 'uphold'),
            'aria-label': `Correct the sheet of table ${p.table}`,
            onclick: () => this.console.correction.open(gameId, sheet, false),
          }, 'Correct'),
          sheet.status === 'disputed' ? this.button(`uphold:${gameId}`, {
            'data-uphold': gameId, 'aria-label': `Uphold the sheet of table ${p.table} (reject the dispute)`,
            onclick: () => this.console.correction.open(gameId, sheet, true),
          }, 'Uphold') : null,
        ] : null));
  }

  /**
   * What a board table without a sheet waits for: an entry, the other player's initials,
   * the director (entries that differ, a dispute, or the round's time up).
   * @param {PairingView} p
   * @returns {{status: string, words: (string | Node | null)[]}}
   */
  boardWaits(p) {
    const board = p.board;
    const entries = board?.entries || [];
    if (board?.missing) return { status: 'missing', words: [h('strong', { class: 'director-disputed', 'data-board-missing': p.table }, 'missing: adjudicate'), h('div', { class: 'small' }, 'The round\'s time is up: enter the result.')] };
    if (board?.waiting_for_director) {
      return { status: 'waiting-director', words: [h('strong', { class: 'director-disputed' }, 'waiting for you'),
        board.dispute ? h('div', { class: 'small' }, `disputed by ${this.store.name(board.dispute.by)}: “${board.dispute.reason}”`) : h('div', { class: 'small' }, 'the entries differ')] };
    }
    if (entries.length) {
      // A player without a device initials through the director: it waits for you then.
      const waiting = [p.first, p.second].filter((id) => id && !entries[0].confirmed_by.includes(id))
        .map((id) => (this.withoutDevice(id) ? `your initials for ${this.store.name(id)} (no device)` : `${this.store.name(id)}'s initials`));
      return { status: 'waiting-initials', words: [`waiting for ${waiting.join(' and ') || 'the players\' initials'}`] };
    }
    return { status: 'playing', words: ['being played at the board'] };
  }

  /** A board table's entries, side by side, each with who entered it. @param {PairingView} p */
  boardEntries(p) {
    const entries = p.board?.entries || [];
    if (!entries.length) return null;
    const name = (/** @type {string | null} */ id) => this.store.name(id);
    return h('div', { class: 'director-board-entries', 'data-board-entries': p.table }, entries.map((e) => h('div', { class: 'director-board-entry', 'data-board-entry-by': e.by },
      h('div', { class: 'small muted' }, e.from_relay ? `the relayed game (${e.by_name}) proposes` : `${e.by_name} entered`),
      h('div', {}, entryText(e, p, name, this.snap.ruleset)),
      e.confirmed_by.length ? h('div', { class: 'small muted' }, `initialled by ${initialsText(e, name)}`) : null)));
  }

  /** Whether a director added this player without a device (they act for them). @param {string | null} id */
  withoutDevice(id) {
    return Boolean(id && this.snap.players.find((pl) => pl.player_id === id)?.added_by_director);
  }

  /**
   * "Enter the result"; "Accept" for each entry the director may take as it stands; and
   * "Initial for ..." for a player without a device whose initials the entry standing
   * waits for (the director's hand, the player's initials; not at the director's own table).
   * @param {PairingView} p
   */
  boardActions(p) {
    const entries = p.board?.entries || [];
    const round = this.drawing;
    const open = this.entering?.round === round && this.entering.table === p.table;
    const accepts = p.board?.waiting_for_director || p.board?.missing ? entries : [];
    const standing = entries[0];
    const mine = [p.first, p.second].includes(this.snap.you || '');
    const initials = standing && !p.board?.waiting_for_director && !mine
      ? [p.first, p.second].filter((id) => id && !standing.confirmed_by.includes(id) && this.withoutDevice(id))
      : [];
    return [
      ...initials.map((id) => this.button(`board-confirm-for:${p.table}:${id}`, {
        'data-board-confirm-for': id,
        'aria-label': `Initial table ${p.table}'s entry for ${this.store.name(id)} (no device): it is right`,
        onclick: () => this.confirmFor(round, p, /** @type {string} */ (id)),
      }, `Initial for ${this.store.name(id)} (accept ${standing.from_relay ? 'the relayed game\'s result' : `${standing.by_name}'s entry`})`)),
      this.button(`board-enter:${p.table}`, {
        'data-board-enter': p.table, 'aria-expanded': String(open), 'aria-label': `Enter the result of table ${p.table}`,
        onclick: () => this.openEntry(p, round),
      }, 'Enter the result'),
      ...accepts.map((e) => this.button(`board-accept:${p.table}`, {
        'data-board-accept': e.by, 'data-key': `board-accept-${p.table}-${e.by}`,
        'aria-label': `Accept ${e.by_name}'s entry (table ${p.table}): it makes the sheet`,
        onclick: () => this.enter(round, p, { action: 'enter', winner: e.winner, victory: e.victory, seeds: e.seeds }),
      }, `Accept ${e.by_name}'s entry`)),
    ];
  }

  /** @param {PairingView} p @param {number} round */
  openEntry(p, round) {
    if (this.entering?.round === round && this.entering.table === p.table) {
      this.entering = null;
      this.redraw(['sheets']);
      return;
    }
    const first = p.board?.entries[0] || null;
    const form = new BoardEntryForm({
      ruleset: this.snap.ruleset,
      akakyala: Boolean(this.snap.settings.time_control.akakyala),
      first: { id: p.first, name: this.store.name(p.first) },
      second: { id: /** @type {string} */ (p.second), name: this.store.name(p.second) },
      prefix: `director-${p.table}`,
      sendLabel: 'Make the sheet',
      initial: first,
      adjudicate: true,
      onSend: (body) => this.enter(round, p, body),
    });
    this.entering = { round, table: p.table, form };
    this.redraw(['sheets']);
    /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-entry-form="director-${p.table}"] button`))?.focus();
  }

  /** The director's entry form, in a row of its own under the table. @param {PairingView} p @param {BoardEntryForm} form */
  enterRow(p, form) {
    return h('tr', { class: 'director-correct-row', 'data-board-enter-form': p.table },
      h('td', { colspan: 5 },
        h('div', { class: 'director-board-enter', role: 'region', 'aria-label': `Enter the result of table ${p.table}` },
          h('p', { class: 'small' }, `Table ${p.table}: ${this.store.name(p.first)} moved first. Your entry makes the sheet at once.`),
          form.el,
          h('button', { type: 'button', class: 'button secondary small', 'data-key': 'board-enter-cancel', onclick: () => { this.entering = null; this.redraw(['sheets']); } }, 'Cancel'))));
  }

  /**
   * The director initials the entry standing for a player without a device.
   * @param {number} round @param {PairingView} p @param {string} player
   */
  confirmFor(round, p, player) {
    const who = this.store.name(player);
    return this.act(`board-confirm-for:${p.table}:${player}`, 'sheets',
      () => api('POST', `/api/tournaments/${this.store.id}/tables/${round}/${p.table}/sheet`, { action: 'confirm-for', player }),
      () => `You initialled table ${p.table}'s entry for ${who}.`,
      (e) => `Table ${p.table}'s entry was not initialled for ${who}: ${errorText(e)}`);
  }

  /**
   * The director's "enter" on a board table: the sheet is made at once.
   * @param {number} round @param {PairingView} p @param {import('../sheet/entryform.js').EnterBody} body
   */
  async enter(round, p, body) {
    const form = this.entering?.table === p.table ? this.entering.form : null;
    const ok = await this.act(`board-enter:${p.table}`, 'sheets',
      () => api('POST', `/api/tournaments/${this.store.id}/tables/${round}/${p.table}/sheet`, body),
      () => `Table ${p.table}'s sheet is made: ${entryText(body, p, (id) => this.store.name(id), this.snap.ruleset)}.`,
      (e) => {
        const text = `Table ${p.table}'s sheet was not made: ${errorText(e)}`;
        form?.refuse(text);
        return text;
      });
    if (ok) {
      this.entering = null;
      this.redraw(['sheets']);
    }
    return ok;
  }

  /**
   * The board tables of closing rounds without a sheet, first and in large type: a round
   * ends only once the director has entered them.
   */
  missing() {
    const missing = this.snap.rounds.flatMap((r) => r.pairings.filter((p) => p.board?.missing && !p.sheet).map((p) => ({ round: r.number, p })));
    if (!missing.length) return null;
    return h('div', { class: 'director-missing', role: 'region', 'aria-label': 'Sheets missing', 'data-missing-sheets': missing.length },
      h('p', {}, h('strong', {}, `${plural(missing.length, 'table at the board has', 'tables at the board have')} no sheet and the round's time is up: adjudicate ${missing.length === 1 ? 'it' : 'them'} (enter the result).`)),
      h('ul', {}, missing.map(({ round, p }) => h('li', { 'data-missing-table': `${round}/${p.table}` },
        `Round ${round}, table ${p.table}: ${this.store.name(p.first)} v ${this.store.name(p.second)}`))));
  }

  /** @param {PairingView} p @param {SheetView} sheet */
  resultWords(p, sheet) {
    return h('span', { 'data-result': true }, resultText(p, sheet, (id) => this.store.name(id)));
  }

  /** The history of a sheet's corrections. @param {PairingView} p @param {SheetView} sheet */
  corrections(p, sheet) {
    const name = (/** @type {string | null} */ id) => this.store.name(id);
    const gameId = sheet.game_id || '';
    return h('details', {
      class: 'director-corrections', 'data-corrections': gameId, open: this.unfolded.has(gameId),
      ontoggle: (/** @type {Event} */ ev) => {
        if (/** @type {HTMLDetailsElement} */ (ev.target).open) this.unfolded.add(gameId);
        else this.unfolded.delete(gameId);
      },
    },
    h('summary', { 'data-key': `corrections-${gameId}` }, plural(sheet.corrections.length, 'correction')),
      h('ol', {}, sheet.corrections.map((c) => h('li', {},
        h('time', { datetime: new Date(c.at_ms).toISOString() }, dayAndTime(c.at_ms)),
        ` by ${c.by_name}: “${c.reason}”. `,
        h('span', { class: 'small' }, `${resultText(p, c.before, name, false)} → ${resultText(p, c.after, name, false)}`)))));
  }
}
