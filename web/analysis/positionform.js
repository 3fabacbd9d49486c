// The analysis board's "Type a position" form: a ruleset, a position string (docs/rules.md#02-position-strings)
// and "The start" of each ruleset. It follows the position shown (to copy, or to edit and
// analyse) without overwriting what is being typed, and shows the server's refusal in
// words. What happens on "Analyse" is the page's (analysis.js).

import { RULESET_NAMES } from '../core/words.js';
import { h, announce } from '../core/ui.js';

/** @typedef {import('../board/notation.js').Ruleset} Ruleset */

export const RULESETS = /** @type {Ruleset[]} */ (['omweso', 'mweiso', 'oware']);

/** The position each ruleset starts from, offered in the form. */
export const STARTS = /** @type {Record<Ruleset, string>} */ ({
  omweso: '4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s',
  mweiso: '2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o',
  oware: '4,4,4,4,4,4/4,4,4,4,4,4 s 0 0',
});

export class PositionForm {
  /** @param {(ruleset: Ruleset, position: string) => Promise<void>} analyse */
  constructor(analyse) {
    this.ruleset = h('select', { id: 'position-ruleset', 'data-position-ruleset': true },
      RULESETS.map((r) => h('option', { value: r }, RULESET_NAMES[r] || r)));
    this.input = h('input', {
      id: 'position-input', type: 'text', 'data-position-input': true, autocomplete: 'off', spellcheck: 'false',
      'aria-describedby': 'position-help position-error', value: STARTS.omweso,
    });
    this.error = h('p', { class: 'form-error', id: 'position-error', role: 'alert', 'data-position-error': true });
    /** The position last written into the field: it follows the position shown. */
    this.shows = '';
    const { ruleset, input } = this;
    this.el = h('form', {
      class: 'panel position-form', 'aria-labelledby': 'position-title',
      onsubmit: async (/** @type {Event} */ ev) => {
        ev.preventDefault();
        await analyse(/** @type {Ruleset} */ (ruleset.value), input.value.trim());
      },
    },
    h('h2', { id: 'position-title' }, 'Type a position'),
    h('p', { class: 'muted small', id: 'position-help' },
      'Four rows from row 4 down to row 1, each 8 counts from A to H, then the side to move (s or n; Mweiso’s opening o, os, on). Oware: north/south side capS capN.'),
    h('p', {}, h('label', { for: 'position-ruleset' }, 'Game '), ruleset,
      ' ', h('button', {
        type: 'button', class: 'button secondary small', 'data-position-start': true,
        onclick: () => { input.value = STARTS[/** @type {Ruleset} */ (ruleset.value)]; },
      }, 'The start')),
    h('p', {}, h('label', { for: 'position-input' }, 'Position'), input),
    this.error,
    h('button', { type: 'submit', class: 'button primary', 'data-position-submit': true }, 'Analyse'));
  }

  /** @param {string} text a refusal in words, or '' to clear it */
  showError(text) {
    this.error.textContent = text;
    if (text) announce(text);
  }

  /**
   * The field holds the position shown, at every move of the line; written only when the
   * position shown changes, so typing is kept.
   * @param {Ruleset} ruleset @param {string} position
   */
  follow(ruleset, position) {
    if (position === this.shows) return;
    this.shows = position;
    this.input.value = position;
    this.ruleset.value = ruleset;
  }
}
