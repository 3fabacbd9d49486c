// The result of a game played at a wooden board, as a player (or the director) enters it
// (docs/rules.md#57-over-the-board-play-and-relays): who won, as one of three big buttons
// (the two players and "Draw"); how, from the victories a board game of the ruleset can end
// by; the seeds each captured (Oware: the pieces taken), checked to add up to no more than
// the game has; then "Send". Built for a phone held by a board: few taps, large targets.
// The sheet page and the director's console both use it (console: "Enter the result").
// The words for an entry already made (`entryText`) are here too, so both say it alike.

import { h, replace } from '../core/ui.js';
import { VICTORY_NAMES } from '../core/words.js';

/** @typedef {import('../board/notation.js').Ruleset} Ruleset */
/**
 * What a board sheet's "enter" sends (docs/protocol.md#over-the-board-addition).
 * @typedef {{action: 'enter', winner: string | null, victory: string | null, seeds: {first: number, second: number}}} EnterBody
 */
/**
 * A result as the form holds it while it is filled in: `winner` a player's id, `draw`, or
 * '' (not chosen yet); the seeds as typed.
 * @typedef {{winner: string, victory: string, first: string, second: string}} Draft
 */

/**
 * The victories a game of `ruleset` played at a board can end by, as the server accepts
 * them (crates/server/src/tournament/board.rs): the rules' own ends, and resigning.
 * @param {Ruleset | string} ruleset
 * @param {boolean} akakyala the tournament's time control plays akakyala
 * @returns {string[]}
 */
export function boardVictories(ruleset, akakyala) {
  if (ruleset === 'oware') return ['captures', 'resigned'];
  if (ruleset === 'mweiso') return ['no-move', 'emitwe-ebiri', 'resigned'];
  return akakyala
    ? ['no-move', 'emitwe-ebiri', 'akawumbi', 'akakyala', 'resigned']
    : ['no-move', 'emitwe-ebiri', 'akawumbi', 'resigned'];
}

/**
 * A victory as a player at a board calls it: "no move" is the ordinary end of a game, so
 * it is called "normal".
 * @param {string | null} victory
 */
export function boardVictoryName(victory) {
  if (!victory) return '';
  if (victory === 'no-move') return 'normal';
  return VICTORY_NAMES[victory] || victory;
}

/** The seeds a game is played with: what the captures add up to at most. @param {Ruleset | string} ruleset */
export function seedsInPlay(ruleset) {
  return ruleset === 'oware' ? 48 : 64;
}

/** What the seeds are called on the form: Oware's are "pieces taken". @param {Ruleset | string} ruleset */
export function seedsWord(ruleset) {
  return ruleset === 'oware' ? 'pieces taken' : 'seeds captured';
}

/**
 * The two counts typed, checked: whole numbers from 0, adding up to no more than the game
 * has. Pure: node's tests check it.
 * @param {string} first @param {string} second @param {Ruleset | string} ruleset
 * @param {{first: string, second: string}} names
 * @returns {{ok: true, seeds: {first: number, second: number}} | {ok: false, error: string, which: 'first' | 'second' | null}}
 */
export function checkSeeds(first, second, ruleset, names) {
  const word = seedsWord(ruleset);
  /** @type {{first: number, second: number}} */
  const seeds = { first: 0, second: 0 };
  for (const which of /** @type {const} */ (['first', 'second'])) {
    const text = (which === 'first' ? first : second).trim();
    if (text === '') return { ok: false, error: `Enter the ${word} by ${names[which]} (0 if none).`, which };
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) return { ok: false, error: `The ${word} by ${names[which]} must be a whole number from 0.`, which };
    seeds[which] = n;
  }
  const most = seedsInPlay(ruleset);
  if (seeds.first + seeds.second > most) {
    return { ok: false, error: `${seeds.first} and ${seeds.second} add up to ${seeds.first + seeds.second}, more than the ${most} a game has.`, which: null };
  }
  return { ok: true, seeds };
}

/**
 * An entry (or the form's result) in words: "Kato won (normal) · seeds captured 40–20".
 * @param {{winner: string | null, victory: string | null, seeds: {first: number, second: number}}} entry
 * @param {{first: string, second: string | null}} pairing the players' ids, in the pairing's order
 * @param {(id: string | null) => string} name
 * @param {Ruleset | string} ruleset
 */
export function entryText(entry, pairing, name, ruleset) {
  const who = entry.winner ? `${name(entry.winner)} won (${boardVictoryName(entry.victory)})` : 'Draw';
  return `${who} · ${seedsWord(ruleset)}: ${name(pairing.first)} ${entry.seeds.first}, ${name(pairing.second)} ${entry.seeds.second}`;
}

/**
 * Links the form's styles (sheet/sheet.css) once: the server links them with the sheet
 * page (crates/server/src/assets/page.rs), not with the tournament page whose console
 * shows the form too. From this module's own folder, so the versioned prefix is kept.
 */
export function linkEntryStyles() {
  if (document.querySelector('link[href*="sheet/sheet.css"]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: new URL('./sheet.css', import.meta.url).href }));
}

export class BoardEntryForm {
  /**
   * @param {{ruleset: Ruleset | string, akakyala: boolean, first: {id: string, name: string},
   *   second: {id: string, name: string}, prefix: string, sendLabel: string,
   *   initial?: {winner: string | null, victory: string | null, seeds: {first: number, second: number}} | null,
   *   adjudicate?: boolean,
   *   onSend: (body: EnterBody) => Promise<boolean>}} options `prefix` keeps the ids of two
   *   forms on one page apart; `adjudicate` (a director's form) offers the victory
   *   `adjudicated`, a win or a draw decided on the seeds when the round's time left the
   *   game unfinished (docs/rules.md#53-rounds); `onSend` resolves whether it was accepted
   */
  constructor(options) {
    linkEntryStyles();
    this.options = options;
    const start = options.initial;
    /** @type {Draft} */
    this.draft = start
      ? { winner: start.winner || 'draw', victory: start.victory || '', first: String(start.seeds.first), second: String(start.seeds.second) }
      : { winner: '', victory: '', first: '', second: '' };
    this.sending = false;
    this.error = h('p', { class: 'form-error', role: 'alert', 'data-entry-error': true });
    this.el = h('form', {
      class: 'entry-form', novalidate: true, 'data-entry-form': options.prefix,
      onsubmit: (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        this.send();
      },
    });
    this.draw();
  }

  get names() {
    return { first: this.options.first.name, second: this.options.second.name };
  }

  /** Draws the form from the draft; the focus stays on the control it was on. */
  draw() {
    const o = this.options;
    const d = this.draft;
    const active = document.activeElement;
    const key = active instanceof HTMLElement && this.el.contains(active) ? active.dataset.key : undefined;
    const choice = (/** @type {string} */ text, /** @type {boolean} */ on, /** @type {Record<string, any>} */ attrs) => h('button', {
      type: 'button', class: `button big choice${on ? ' chosen' : ''}`, 'aria-pressed': String(on), ...attrs,
    }, text);
    const winnerGroup = h('fieldset', { class: 'entry-step' },
      h('legend', {}, '1. Who won?'),
      h('div', { class: 'choice-row' },
        [o.first, o.second].map((p) => choice(p.name, d.winner === p.id, {
          'data-entry-winner': p.id, 'data-key': `winner-${p.id}`,
          onclick: () => this.set({ winner: p.id }),
        })),
        choice('Draw', d.winner === 'draw', {
          'data-entry-winner': 'draw', 'data-key': 'winner-draw',
          onclick: () => this.set({ winner: 'draw', victory: '' }),
        })));
    const draw = d.winner === 'draw';
    // A draw names no victory, unless a director adjudicates it ('' a draw played out).
    const victories = draw
      ? (o.adjudicate ? ['', 'adjudicated'] : [])
      : [...boardVictories(o.ruleset, o.akakyala), ...(o.adjudicate ? ['adjudicated'] : [])];
    const victoryGroup = d.winner && victories.length ? h('fieldset', { class: 'entry-step' },
      h('legend', {}, '2. How?'),
      h('div', { class: 'choice-row' }, victories.map((v) => choice(v ? boardVictoryName(v) : 'played out', d.victory === v, {
        'data-entry-victory': v || 'none', 'data-key': `victory-${v || 'none'}`,
        onclick: () => this.set({ victory: v }),
      })))) : null;
    const word = seedsWord(o.ruleset);
    const stepper = (/** @type {'first' | 'second'} */ which) => {
      const id = `${o.prefix}-seeds-${which}`;
      const input = h('input', {
        id, type: 'number', inputmode: 'numeric', min: 0, max: seedsInPlay(o.ruleset), step: 1,
        class: 'seeds-input', 'data-entry-seeds': which, 'data-key': `seeds-${which}`,
        oninput: (/** @type {Event} */ ev) => {
          this.draft[which] = /** @type {HTMLInputElement} */ (ev.target).value;
          this.error.textContent = '';
        },
      });
      input.value = d[which];
      const bump = (/** @type {number} */ by) => {
        const now = Number(this.draft[which]) || 0;
        this.set({ [which]: String(Math.max(0, Math.min(seedsInPlay(o.ruleset), now + by))) });
      };
      const name = this.names[which];
      return h('div', { class: 'seeds-field' },
        h('label', { for: id }, name),
        h('div', { class: 'stepper' },
          h('button', { type: 'button', class: 'button secondary step', 'aria-label': `One less for ${name}`, 'data-key': `less-${which}`, onclick: () => bump(-1) }, '−'),
          input,
          h('button', { type: 'button', class: 'button secondary step', 'aria-label': `One more for ${name}`, 'data-key': `more-${which}`, onclick: () => bump(1) }, '+')));
    };
    const seedsGroup = d.winner && (draw || d.victory) ? h('fieldset', { class: 'entry-step' },
      h('legend', {}, `${victoryGroup ? '3' : '2'}. ${word[0].toUpperCase()}${word.slice(1)} by each`),
      h('p', { class: 'muted small' }, `At most ${seedsInPlay(o.ruleset)} together.`),
      h('div', { class: 'seeds-row' }, stepper('first'), stepper('second'))) : null;
    const ready = Boolean(seedsGroup);
    replace(this.el,
      winnerGroup, victoryGroup, seedsGroup,
      this.error,
      h('button', {
        type: 'submit', class: 'button primary big send', 'data-entry-send': true, 'data-key': 'send',
        disabled: !ready || this.sending,
      }, this.sending ? 'Sending…' : o.sendLabel));
    if (key) /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-key="${CSS.escape(key)}"]`))?.focus();
  }

  /** @param {Partial<Draft>} change */
  set(change) {
    Object.assign(this.draft, change);
    this.error.textContent = '';
    this.draw();
  }

  async send() {
    const d = this.draft;
    if (this.sending) return;
    if (!d.winner) {
      this.error.textContent = 'Say who won, or that it was a draw.';
      return;
    }
    if (d.winner !== 'draw' && !d.victory) {
      this.error.textContent = 'Say how the game was won.';
      return;
    }
    const checked = checkSeeds(d.first, d.second, this.options.ruleset, this.names);
    if (!checked.ok) {
      this.error.textContent = checked.error;
      /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-entry-seeds="${checked.which || 'first'}"]`))?.focus();
      return;
    }
    this.sending = true;
    this.draw();
    const winner = d.winner === 'draw' ? null : d.winner;
    try {
      await this.options.onSend({ action: 'enter', winner, victory: d.victory || null, seeds: checked.seeds });
    } finally {
      this.sending = false;
      if (this.el.isConnected) this.draw();
    }
  }

  /** Shows a refusal under the form. @param {string} text */
  refuse(text) {
    this.error.textContent = text;
  }
}
