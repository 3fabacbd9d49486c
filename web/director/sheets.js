// The console's score sheets: one round's sheets at a time (a select for the others), each
// game's players, result, free-setup arrangements, status (pending with its countdown,
// disputed and by whom, corrected) and history of corrections, with the buttons that open
// the correction form (correction.js).

import { h } from '../core/ui.js';
import { RESULT_WORDS, SHEET_STATUS_WORDS, VICTORY_NAMES, formatPoints } from '../core/words.js';
import { plural } from '../core/plural.js';
import { ConsolePart } from './part.js';

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
    for (const p of shown.pairings) {
      for (const old of p.replaced) rows.push(this.sheetRow(p, old.game_id, old.sheet, true));
      if (p.game_id || p.sheet) rows.push(this.sheetRow(p, p.game_id, p.sheet, false));
      else rows.push(this.sheetRow(p, null, null, false));
      const gameId = p.game_id;
      if (gameId && this.console.correction.correcting?.gameId === gameId && p.sheet) rows.push(this.console.correction.row(p, p.sheet));
    }
    return [
      h('h4', { class: 'sr-only' }, `Round ${shown.number}`),
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
    const status = replaced ? 'replayed' : sheet ? sheet.status : gameId ? 'playing' : 'waiting';
    /** @type {(string | Node | null)[]} */
    let statusCell;
    if (replaced) statusCell = ['annulled and replayed'];
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
    return h('tr', { 'data-sheet-row': gameId, 'data-bye-row': p.second === null ? p.table : null, 'data-table': p.table, 'data-status': status, class: `sheet-${status}${replaced ? ' replaced' : ''}` },
      h('td', { class: 'num' }, gameId && !replaced ? h('a', { href: `/g/${gameId}`, 'aria-label': `Table ${p.table}: open the game` }, String(p.table)) : String(p.table)),
      h('td', {}, players),
      h('td', {},
        sheet ? this.resultWords(p, sheet) : '',
        sheet?.arrangements ? arrangementsLine(p, sheet.arrangements, (id) => this.store.name(id)) : null,
        sheet && sheet.corrections.length ? this.corrections(p, sheet) : null),
      h('td', { 'data-sheet-status': status }, statusCell),
      h('td', { class: 'director-sheet-actions' },
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
        h('time', { datetime: new Date(c.at_ms).toISOString() }, new Date(c.at_ms).toLocaleString()),
        ` by ${c.by_name}: “${c.reason}”. `,
        h('span', { class: 'small' }, `${resultText(p, c.before, name, false)} → ${resultText(p, c.after, name, false)}`)))));
  }
}
