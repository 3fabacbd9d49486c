// Correcting one game's score sheet (the director's right, docs/protocol.md "Tournaments"):
// the form under the sheet's row - who won, or a draw (in Omweso and Mweiso only the
// director's adjudication), or an annulment; the victory (or why it was annulled) with what
// it is worth; the reason, required - and upholding a disputed sheet as it stands. The
// original stays on record with the server.

import { api } from '../core/api.js';
import { h, errorText } from '../core/ui.js';
import { formatPoints, victoryLabel } from '../core/words.js';
import { ConsolePart } from './part.js';
import { resultText } from './sheets.js';
import { checkSeeds } from '../sheet/entryform.js';

/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */
/** @typedef {import('../tournament/tournamentstore.js').PairingView} PairingView */
/** @typedef {import('../tournament/tournamentstore.js').SheetView} SheetView */
/** @typedef {import('../tournament/tournamentstore.js').ResultView} ResultView */
/**
 * A correction being written for one game's sheet.
 * A sheet entered at the board carries its seeds too (`seeds`, as typed; null otherwise).
 * @typedef {{gameId: string, result: string, victory: string, reason: string, seeds: {first: string, second: string} | null}} Correcting
 */

/** The victories a game of each ruleset can end with (docs/rules.md#15-end-of-the-game, 2, 3, 4, 5.3). */
const VICTORIES = /** @type {Record<string, string[]>} */ ({
  omweso: ['no-move', 'emitwe-ebiri', 'akawumbi', 'akakyala', 'resigned', 'abandoned', 'adjudicated'],
  mweiso: ['no-move', 'emitwe-ebiri', 'resigned', 'abandoned', 'adjudicated'],
  oware: ['captures', 'impasse', 'resigned', 'abandoned', 'adjudicated'],
});
const ANNUL_REASONS = ['never-ending', 'budget'];

/**
 * The draw a correction may make (docs/rules.md#15-end-of-the-game, 3 and 5.3): Oware's,
 * played out; Omweso and Mweiso have no draws in play, so theirs is the director's
 * adjudication on equal seeds on each side, and says so to the server (`adjudicated`).
 * @param {string} ruleset
 * @returns {{label: string, adjudicated: boolean}}
 */
export function drawCorrection(ruleset) {
  return ruleset === 'oware' ? { label: 'Draw', adjudicated: false } : { label: 'Draw on adjudication', adjudicated: true };
}

/**
 * The sheet's result as the form's choices: who won (the pairing's first or second), a
 * draw or an annulment, and the victory (or the annulment's reason).
 * @param {SheetView | ResultView} sheet
 * @returns {{result: 'first'|'second'|'annulled'|'draw', victory: string}}
 */
export function currentOutcome(sheet) {
  const won = (/** @type {string | null} */ r) => Boolean(r && /won$/.test(r));
  // A forfeit is a win by abandonment without a move: as the game's outcome, `abandoned`.
  const victory = sheet.victory === 'forfeit' ? 'abandoned' : sheet.victory || '';
  if (won(sheet.first_result)) return { result: 'first', victory };
  if (won(sheet.second_result)) return { result: 'second', victory };
  if (sheet.first_result === 'annulled') return { result: 'annulled', victory };
  return { result: 'draw', victory: '' };
}

export class CorrectionForm extends ConsolePart {
  /** @param {import('./console.js').DirectorConsole} owner */
  constructor(owner) {
    super(owner);
    /** @type {Correcting | null} */
    this.correcting = null;
  }

  /**
   * Opens the correction form of a game, filled in with the sheet as it stands.
   * @param {string} gameId
   * @param {SheetView} sheet
   * @param {boolean} uphold
   */
  open(gameId, sheet, uphold) {
    const current = currentOutcome(sheet);
    const reason = this.correcting?.gameId === gameId ? this.correcting.reason : '';
    // A board sheet's seeds captured are the players' count; an adjudication's seeds on each
    // side of the board are not captures, and stay as the director counted them.
    const seeds = sheet.over_the_board && !sheet.seeds_on_board ? { first: String(sheet.seeds.first), second: String(sheet.seeds.second) } : null;
    this.correcting = { gameId, result: current.result, victory: current.victory, reason: reason || (uphold ? 'dispute rejected: ' : ''), seeds };
    this.alert('sheets', '');
    this.redraw(['sheets']);
    const focus = /** @type {HTMLElement | null} */ (this.el.querySelector(uphold ? '#correct-reason' : '#correct-result'));
    focus?.focus();
    if (uphold && focus instanceof HTMLTextAreaElement) focus.setSelectionRange(focus.value.length, focus.value.length);
  }

  /**
   * The correction form, in a row of its own under the sheet.
   * @param {PairingView} p
   * @param {SheetView} sheet
   */
  row(p, sheet) {
    const c = /** @type {Correcting} */ (this.correcting);
    const snap = this.snap;
    const ruleset = snap.ruleset;
    const name = (/** @type {string | null} */ id) => this.store.name(id);
    let victories = c.result === 'annulled' ? ANNUL_REASONS : (VICTORIES[ruleset] || VICTORIES.omweso);
    if (c.result !== 'annulled' && ruleset === 'omweso' && !snap.settings.time_control.akakyala) {
      victories = victories.filter((v) => v !== 'akakyala' || v === c.victory);
    }
    if (c.result !== 'draw' && !victories.includes(c.victory)) c.victory = victories[0];
    const pts = snap.settings.points;
    const worth = (/** @type {string} */ v) => {
      if (c.result === 'annulled') return ` — ${formatPoints(pts.annulled)} each`;
      const value = ruleset === 'oware' ? pts.win : (pts[v] ?? pts.win);
      return ` — ${formatPoints(value)} for the winner`;
    };
    const current = currentOutcome(sheet);
    const same = current.result === c.result && (c.result === 'draw' || current.victory === c.victory);
    const result = h('select', {
      id: 'correct-result', 'data-key': 'correct-result',
      onchange: (/** @type {Event} */ ev) => {
        c.result = /** @type {HTMLSelectElement} */ (ev.target).value;
        this.redraw(['sheets']);
      },
    },
    h('option', { value: 'first', selected: c.result === 'first' }, `${name(p.first)} won`),
    h('option', { value: 'second', selected: c.result === 'second' }, `${name(p.second)} won`),
    h('option', { value: 'draw', selected: c.result === 'draw' }, `${drawCorrection(ruleset).label} (${formatPoints(pts.draw)} each)`),
    h('option', { value: 'annulled', selected: c.result === 'annulled' }, `Annulled, not replayed (${formatPoints(pts.annulled)} each)`));
    const victory = h('select', {
      id: 'correct-victory', 'data-key': 'correct-victory', disabled: c.result === 'draw',
      onchange: (/** @type {Event} */ ev) => {
        c.victory = /** @type {HTMLSelectElement} */ (ev.target).value;
        this.redraw(['sheets']);
      },
    },
    c.result === 'draw'
      ? h('option', { value: '' }, 'none: a draw')
      : victories.map((v) => h('option', { value: v, selected: v === c.victory }, `${victoryLabel(v)}${worth(v)}`)));
    const reason = h('textarea', {
      id: 'correct-reason', 'data-key': 'correct-reason', rows: 2, maxlength: 500, required: true,
      'aria-describedby': 'correct-reason-hint',
      oninput: (/** @type {Event} */ ev) => { c.reason = /** @type {HTMLTextAreaElement} */ (ev.target).value; },
    });
    reason.value = c.reason;
    const key = `correct:${c.gameId}`;
    return h('tr', { class: 'director-correct-row', 'data-correct-form': c.gameId },
      h('td', { colspan: 5 },
        h('form', {
          class: 'director-correct', 'aria-label': `Correct the sheet of table ${p.table}`, novalidate: true,
          onsubmit: (/** @type {SubmitEvent} */ ev) => {
            ev.preventDefault();
            this.submit(p, sheet);
          },
        },
        h('p', { class: 'small' }, `Table ${p.table}: ${name(sheet.moved_first || p.first)} moved first. As it stands: ${resultText(p, sheet, name)}.`),
        h('div', { class: 'director-correct-fields' },
          h('div', { class: 'field' }, h('label', { for: 'correct-result' }, 'Result'), result),
          h('div', { class: 'field', hidden: c.result === 'draw' },
            h('label', { for: 'correct-victory' }, c.result === 'annulled' ? 'Why it was annulled' : 'Victory'), victory),
          c.seeds ? this.seedsFields(p, c.seeds) : null,
          h('div', { class: 'field director-correct-reason' },
            h('label', { for: 'correct-reason' }, 'Reason (required)'), reason,
            h('p', { class: 'muted small', id: 'correct-reason-hint' }, 'Kept on the sheet and in the export, with your name and the time. Up to 500 characters.'))),
        h('div', { class: 'button-row' },
          h('button', {
            type: 'submit', class: 'button primary small', 'data-correct-submit': c.gameId, 'data-action': key, 'data-key': 'correct-submit',
            disabled: this.console.busy.has(key),
          }, same ? 'Uphold the result' : 'Save the correction'),
          h('button', {
            type: 'button', class: 'button secondary small', 'data-correct-cancel': true, 'data-key': 'correct-cancel',
            onclick: () => {
              this.correcting = null;
              this.alert('sheets', '');
              this.redraw(['sheets']);
              /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-correct="${CSS.escape(p.game_id || '')}"]`))?.focus();
            },
          }, 'Cancel')),
        same ? h('p', { class: 'muted small' }, 'The same result as the sheet: saving upholds it as it stands (a dispute rejected), recorded as a correction.') : null)));
  }

  /**
   * A board sheet's seeds, each player's, as the correction sets them.
   * @param {PairingView} p @param {{first: string, second: string}} seeds
   */
  seedsFields(p, seeds) {
    const word = this.snap.ruleset === 'oware' ? 'Pieces taken' : 'Seeds captured';
    const one = (/** @type {'first' | 'second'} */ which) => h('div', { class: 'field' },
      h('label', { for: `correct-seeds-${which}` }, `${word} by ${this.store.name(which === 'first' ? p.first : p.second)}`),
      h('input', {
        id: `correct-seeds-${which}`, type: 'number', inputmode: 'numeric', min: 0, step: 1, value: seeds[which],
        'data-key': `correct-seeds-${which}`, 'data-correct-seeds': which, class: 'tform-number',
        oninput: (/** @type {Event} */ ev) => { seeds[which] = /** @type {HTMLInputElement} */ (ev.target).value; },
      }));
    return [one('first'), one('second')];
  }

  /** @param {PairingView} p @param {SheetView} sheet */
  async submit(p, sheet) {
    const c = this.correcting;
    if (!c) return;
    const reason = c.reason.trim();
    if (!reason) {
      this.alert('sheets', 'Give a reason for the correction: it is kept on the sheet.');
      /** @type {HTMLElement | null} */ (this.el.querySelector('#correct-reason'))?.focus();
      return;
    }
    // The result in the game's own seats: "s" is who moved first in that game (a replay
    // swaps it), which may be the pairing's second player.
    const movedFirst = sheet.moved_first || p.first;
    /** @type {any} */
    let result;
    const draw = drawCorrection(this.snap.ruleset);
    if (c.result === 'draw') result = { result: 'draw' };
    else if (c.result === 'annulled') result = { result: 'annulled', reason: c.victory };
    else {
      const winner = c.result === 'first' ? p.first : p.second;
      result = { result: 'win', winner: winner === movedFirst ? 's' : 'n', victory: c.victory };
    }
    /** @type {{first: number, second: number} | null} */
    let seeds = null;
    if (c.seeds) {
      const checked = checkSeeds(c.seeds.first, c.seeds.second, this.snap.ruleset, { first: this.store.name(p.first), second: this.store.name(p.second) });
      if (!checked.ok) {
        this.alert('sheets', checked.error);
        /** @type {HTMLElement | null} */ (this.el.querySelector(`#correct-seeds-${checked.which || 'first'}`))?.focus();
        return;
      }
      seeds = checked.seeds;
    }
    const gameId = c.gameId;
    const ok = await this.act(`correct:${gameId}`, 'sheets',
      () => api('POST', `/api/tournaments/${this.store.id}/sheets/${gameId}`, { action: 'correct', result, reason, ...(seeds ? { seeds } : {}), ...(c.result === 'draw' && draw.adjudicated ? { adjudicated: true } : {}) }),
      (answer) => `Table ${p.table}'s sheet now reads: ${resultText(p, answer || sheet, (id) => this.store.name(id))}.`,
      (e) => `The correction was not saved: ${errorText(e)}`);
    if (ok) {
      this.correcting = null;
      this.redraw(['sheets']);
      /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-correct="${CSS.escape(gameId)}"]`))?.focus();
    }
  }
}
