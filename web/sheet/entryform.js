// The result of a game played at a wooden board, as a player (or the director) enters it
// (docs/rules.md#57-over-the-board-play-and-relays): who won, as big buttons (the two
// players, and "Draw" only where the ruleset has one: Oware, or a director's adjudication);
// how, from the victories a board game of the ruleset can end by; the seeds each captured
// (Oware: the pieces taken), checked to add up to no more than the game has (a director's
// adjudication of Omweso or Mweiso: the seeds on each side of the board, which it is
// decided on); then "Send". Built for a phone held by a board: few taps, large targets.
// The sheet page and the director's console both use it (console: "Enter the result").
// The words for an entry already made (`entryText`) are here too, so both say it alike.

import { h, replace } from '../core/ui.js';
import { RULESET_NAMES, VICTORY_NAMES } from '../core/words.js';

/** @typedef {import('../board/notation.js').Ruleset} Ruleset */
/**
 * What a board sheet's "enter" sends (docs/protocol.md#over-the-board-addition): an
 * adjudication of Omweso or Mweiso gives the seeds on each side of the board
 * (`seeds_on_board`), its seeds captured 0 (nobody counted them).
 * @typedef {{action: 'enter', winner: string | null, victory: string | null, seeds: {first: number, second: number},
 *   seeds_on_board?: {first: number, second: number}}} EnterBody
 */
/**
 * A result as the form holds it while it is filled in: `winner` a player's id, `draw`, or
 * '' (not chosen yet); the seeds as typed.
 * @typedef {{winner: string, victory: string, first: string, second: string}} Draft
 */

/**
 * The victories a game of `ruleset` played at a board can end by, as the server accepts
 * them (crates/tournament/src/board.rs): the rules' own ends, and resigning.
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
 * The draw a form offers, if any (docs/rules.md#15-end-of-the-game, 3 and 5.3): Oware is
 * drawn in play (24-24), and a director may also adjudicate it; Omweso and Mweiso have no
 * draws in play, so only a director's form offers one, as an adjudication on equal seeds on
 * each side. `victories`: the ways a draw is told ('' played out); `null`: no draw offered.
 * @param {Ruleset | string} ruleset
 * @param {boolean} adjudicate the director's form
 * @returns {{label: string, victories: string[]} | null}
 */
export function drawChoice(ruleset, adjudicate) {
  if (ruleset === 'oware') return { label: 'Draw', victories: adjudicate ? ['', 'adjudicated'] : [] };
  return adjudicate ? { label: 'Draw (adjudicated)', victories: ['adjudicated'] } : null;
}

/**
 * A victory as the board's forms and sheets call it: the rules' own names (core/words.js),
 * "no move" for the ordinary end of a game, as the printed sheet and the console say it.
 * @param {string | null} victory
 */
export function boardVictoryName(victory) {
  if (!victory) return '';
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
 * Whether a result is decided on the seeds on each side of the board rather than on the
 * seeds captured: an adjudication of Omweso or Mweiso (docs/rules.md#53-rounds; Oware's is
 * on the pieces taken).
 * @param {Ruleset | string} ruleset @param {string | null} victory
 */
export function onBoard(ruleset, victory) {
  return ruleset !== 'oware' && victory === 'adjudicated';
}

/**
 * The seeds on each side of the board, typed for an adjudication, checked: whole numbers
 * from 0 adding up to the board's seeds (none leaves an Omweso board), and saying what was
 * decided: the side with more wins, equal is a draw. Pure: node's tests check it.
 * @param {string} first @param {string} second @param {Ruleset | string} ruleset
 * @param {{first: string, second: string}} names
 * @param {'first' | 'second' | null} winner who is said to have won (null: a draw)
 * @returns {{ok: true, seeds: {first: number, second: number}} | {ok: false, error: string, which: 'first' | 'second' | null}}
 */
export function checkSeedsOnBoard(first, second, ruleset, names, winner) {
  /** @type {{first: number, second: number}} */
  const seeds = { first: 0, second: 0 };
  for (const which of /** @type {const} */ (['first', 'second'])) {
    const text = (which === 'first' ? first : second).trim();
    if (text === '') return { ok: false, error: `Enter the seeds on ${names[which]}'s side (0 if none).`, which };
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) return { ok: false, error: `The seeds on ${names[which]}'s side must be a whole number from 0.`, which };
    seeds[which] = n;
  }
  const board = seedsInPlay(ruleset);
  const { first: a, second: b } = seeds;
  if (a + b !== board) return { ok: false, error: `${a} and ${b} add up to ${a + b}: a board holds ${board} seeds. Count them again.`, which: null };
  const more = a > b ? 'first' : b > a ? 'second' : null;
  if (more === winner) return { ok: true, seeds };
  if (!winner) return { ok: false, error: `A draw is equal seeds on each side, not ${a} to ${b}.`, which: null };
  if (!more) return { ok: false, error: `Equal seeds on each side (${a} each) are a draw.`, which: null };
  return { ok: false, error: `${names[more]} has more seeds on their side (${Math.max(a, b)} to ${Math.min(a, b)}): the side with more wins.`, which: null };
}

/**
 * An entry (or the form's result) in words: "Kato won (no move) · seeds captured: Kato 40,
 * Nakato 20".
 * An adjudication of Omweso or Mweiso is told with the seeds on each side it was decided on.
 * @param {{winner: string | null, victory: string | null, seeds: {first: number, second: number},
 *   seeds_on_board?: {first: number, second: number}}} entry
 * @param {{first: string, second: string | null}} pairing the players' ids, in the pairing's order
 * @param {(id: string | null) => string} name
 * @param {Ruleset | string} ruleset
 */
export function entryText(entry, pairing, name, ruleset) {
  const how = entry.victory ? ` (${boardVictoryName(entry.victory)})` : '';
  const who = entry.winner ? `${name(entry.winner)} won${how}` : `Draw${how}`;
  const [word, seeds] = entry.seeds_on_board ? ['seeds on each side', entry.seeds_on_board] : [seedsWord(ruleset), entry.seeds];
  return `${who} · ${word}: ${name(pairing.first)} ${seeds.first}, ${name(pairing.second)} ${seeds.second}`;
}

/**
 * Who initialled an entry, in words: "Nakato", or "the director Sarah for Okello" for a
 * player without a device, whose initials a director made (`confirmed_for`).
 * @param {{confirmed_by: string[], confirmed_for?: {player: string, by_name: string}[]}} entry
 * @param {(id: string | null) => string} name
 * @param {string} [except] a player left out (the entry's author)
 */
export function initialsText(entry, name, except) {
  return entry.confirmed_by.filter((id) => id !== except).map((id) => {
    const hand = (entry.confirmed_for || []).find((f) => f.player === id);
    return hand ? `the director ${hand.by_name} for ${name(id)}` : name(id);
  }).join(' and ');
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
    const drawn = drawChoice(o.ruleset, Boolean(o.adjudicate));
    const winnerGroup = h('fieldset', { class: 'entry-step' },
      h('legend', {}, drawn ? '1. Who won?' : `1. Who won? (${RULESET_NAMES[o.ruleset] || o.ruleset} has no draws)`),
      h('div', { class: 'choice-row' },
        [o.first, o.second].map((p) => choice(p.name, d.winner === p.id, {
          'data-entry-winner': p.id, 'data-key': `winner-${p.id}`,
          onclick: () => this.set({ winner: p.id }),
        })),
        drawn ? choice(drawn.label, d.winner === 'draw', {
          'data-entry-winner': 'draw', 'data-key': 'winner-draw',
          // One way to tell the draw (Omweso's adjudication): it is chosen with it.
          onclick: () => this.set({ winner: 'draw', victory: drawn.victories.length === 1 ? drawn.victories[0] : '' }),
        }) : null));
    const draw = d.winner === 'draw';
    // A draw names no victory, unless a director adjudicates it ('' a draw played out).
    const victories = draw
      ? (drawn && drawn.victories.length > 1 ? drawn.victories : [])
      : [...boardVictories(o.ruleset, o.akakyala), ...(o.adjudicate ? ['adjudicated'] : [])];
    const victoryGroup = d.winner && victories.length ? h('fieldset', { class: 'entry-step' },
      h('legend', {}, '2. How?'),
      h('div', { class: 'choice-row' }, victories.map((v) => choice(v ? boardVictoryName(v) : 'played out', d.victory === v, {
        'data-entry-victory': v || 'none', 'data-key': `victory-${v || 'none'}`,
        onclick: () => this.set({ victory: v }),
      })))) : null;
    // An adjudication of Omweso or Mweiso asks for the seeds on each side of the board.
    const board = onBoard(o.ruleset, d.victory || null);
    const word = board ? 'seeds on each side of the board' : seedsWord(o.ruleset);
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
      h('legend', {}, `${victoryGroup ? '3' : '2'}. ${word[0].toUpperCase()}${word.slice(1)}${board ? '' : ' by each'}`),
      h('p', { class: 'muted small' }, board
        ? `${seedsInPlay(o.ruleset)} together: the side with more wins, equal is a draw.`
        : `At most ${seedsInPlay(o.ruleset)} together.`),
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
    const board = onBoard(this.options.ruleset, d.victory || null);
    const said = d.winner === 'draw' ? null : d.winner === this.options.first.id ? 'first' : 'second';
    const checked = board
      ? checkSeedsOnBoard(d.first, d.second, this.options.ruleset, this.names, said)
      : checkSeeds(d.first, d.second, this.options.ruleset, this.names);
    if (!checked.ok) {
      this.error.textContent = checked.error;
      /** @type {HTMLElement | null} */ (this.el.querySelector(`[data-entry-seeds="${checked.which || 'first'}"]`))?.focus();
      return;
    }
    this.sending = true;
    this.draw();
    const winner = d.winner === 'draw' ? null : d.winner;
    try {
      const seeds = board ? { seeds: { first: 0, second: 0 }, seeds_on_board: checked.seeds } : { seeds: checked.seeds };
      await this.options.onSend({ action: 'enter', winner, victory: d.victory || null, ...seeds });
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
