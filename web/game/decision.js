// The decision panel: when a turn may go on more than one way, its options as buttons,
// each with what it would do in words and, while pointed at or focused, on the board - as
// the server says in the decision's `results` (the snapshot's `pending_results`). A choice
// that annuls the game needs a second click (docs/rules.md#14-never-ending-turns). Once the player has answered,
// the panel leaves the screen (it comes back if the server refuses).

import { moveLimitLine } from './clocks.js';
import { cellOf, summarizeLaps } from '../board/notation.js';
import { myDecision } from './viewer.js';
import { h, toast, errorText } from '../core/ui.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('./model.js').OptionResult} OptionResult */
/** @typedef {import('../board/notation.js').Lap} Lap */

/** Each answer's name on its button. */
const OPTION_NAMES = /** @type {Record<string, string>} */ ({ a: 'Anticlockwise', c: 'Clockwise', l: 'Leave them' });

/** What each answer does, in words. */
const OPTION_HELP = /** @type {Record<string, string>} */ ({
  a: 'sow on anticlockwise (the usual way)',
  c: 'sow clockwise from the same pit',
  l: 'leave the captured seeds in this hole and go on from the other reverse hole',
});

/** @param {string} option */
const help = (option) => OPTION_HELP[option] || `go on from ${option}`;

/**
 * Does the pointer hover? On a touch screen the browser sends a "hover" to whatever is
 * drawn under the last tap: the next decision's button would preview on its own.
 */
const canHover = () => matchMedia('(hover: hover)').matches;

/**
 * What the server says an answer to the waiting decision does.
 * @param {Snapshot} snap @param {string} option
 * @returns {OptionResult | undefined}
 */
function resultOf(snap, option) {
  const results = snap.pending_results || [];
  const i = (snap.pending || []).indexOf(option);
  // One result per option, in the same order; the choice is named too.
  return results[i]?.choice === option ? results[i] : results.find((r) => r.choice === option);
}

/**
 * An option's result in words.
 * @param {OptionResult | undefined} result @param {string} option @param {Snapshot} snap
 * @param {((winner: import('../board/notation.js').Side) => string) | undefined} winText a win in
 *   words for someone who is not a player (the analysis board), else "you win"/"you lose"
 */
function resultText(result, option, snap, winText) {
  if (!result) return help(option);
  const parts = [summarizeLaps(result.laps, result.laps_omitted)];
  if (result.decision) parts.push('then another choice');
  const outcome = result.outcome;
  if (outcome?.result === 'annulled') parts.push('⚠ the game would be annulled');
  else if (outcome?.result === 'win') {
    const who = winText ? winText(outcome.winner) : outcome.winner === snap.you ? 'you win' : 'you lose';
    parts.push(`${who} (${outcome.victory})`);
  }
  return `${help(option)} — ${parts.join('; ')}`;
}

export class DecisionPanel {
  /**
   * @param {{snap: () => Snapshot | null, send: (choice: string) => Promise<void>,
   *   render: () => void, renderBoard: () => void, running: () => boolean,
   *   say: (text: string) => void, winText?: (winner: import('../board/notation.js').Side) => string}} host
   *   `running`: events are being drawn; `say`: the line under the board; `winText`: a win
   *   in words when the viewer is not a player (the analysis board)
   */
  constructor(host) {
    this.host = host;
    /** @type {string | null} the option previewed on the board */
    this.previewing = null;
    /** @type {string | null} an option that annuls the game, clicked once */
    this.armed = null;
    /** The version of the decision these choices belong to. */
    this.version = -1;
    /** @type {number | null} the version of the decision answered (its panel is gone) */
    this.answered = null;
    /** An answer is on its way to the server. */
    this.sending = false;
  }

  /** Does the viewer's decision wait on the screen (not answered yet)? @param {Snapshot} snap */
  isOpen(snap) {
    return myDecision(snap) && this.answered !== snap.version;
  }

  /** A new decision forgets the last one's pointer and confirmation. @param {Snapshot} snap */
  follow(snap) {
    if (this.version === snap.version) return;
    this.version = snap.version;
    this.previewing = null;
    this.armed = null;
  }

  /**
   * The board to show instead of the game: the option pointed at.
   * @param {Snapshot} snap
   * @returns {{option: string, position: string} | null}
   */
  boardPreview(snap) {
    this.follow(snap);
    const option = this.previewing;
    const result = option && this.isOpen(snap) ? resultOf(snap, option) : undefined;
    return option && result ? { option, position: result.position } : null;
  }

  /**
   * The panel's contents.
   * @param {Snapshot} snap
   * @param {Lap | null} hand the lap that left seeds in hand, if any
   */
  parts(snap, hand) {
    this.follow(snap);
    const options = snap.pending || [];
    const pits = options.filter((o) => cellOf(snap.ruleset, o) >= 0);
    const intro = pits.length === options.length
      ? 'Choose the pit to go on from, anticlockwise (or click it on the board).'
      : hand && hand.kind === 'capture'
        ? `You captured ${hand.captured}. How do you sow them on?`
        : 'Your lap may go on either way. Which way?';
    const buttons = options.map((option) => {
      const armed = this.armed === option;
      return h('button', {
        type: 'button', class: `button choice ${armed ? 'armed' : ''}`, 'data-choice': option, disabled: this.sending,
        'aria-describedby': `choice-${option}-preview`,
        onclick: () => this.decide(option),
        onpointerenter: () => canHover() && this.showPreview(option),
        onpointerleave: () => canHover() && this.showPreview(null),
        onfocus: () => this.showPreview(option),
        onblur: () => this.showPreview(null),
      },
      h('span', { class: 'choice-name' }, armed ? 'Confirm: annul the game' : OPTION_NAMES[option] || option),
      h('span', { class: 'choice-token' }, option),
      h('span', { class: 'choice-preview small', id: `choice-${option}-preview`, 'data-preview': option },
        resultText(resultOf(snap, option), option, snap, this.host.winText)));
    });
    return [
      h('p', { class: 'prompt' }, h('strong', {}, 'Decision: '), intro),
      h('div', { class: 'choices', role: 'group', 'aria-label': 'Options' }, buttons),
      h('p', { class: 'muted small' }, 'Point at (or focus) an option to see its result on the board.'),
      moveLimitLine(),
    ];
  }

  /** @param {string | null} option */
  showPreview(option) {
    if (this.previewing === option) return;
    this.previewing = option;
    this.host.renderBoard();
  }

  /** The player chose `choice`. @param {string} choice */
  async decide(choice) {
    const snap = this.host.snap();
    if (!snap || this.sending || !this.isOpen(snap)) return;
    this.follow(snap);
    if (resultOf(snap, choice)?.outcome?.result === 'annulled' && this.armed !== choice) {
      // docs/rules.md#14-never-ending-turns: warn before sending a choice that annuls the game.
      this.armed = choice;
      toast('This choice never ends (or runs past the move limit): the game would be annulled. Choose it again to confirm.', 'error');
      this.host.render();
      return;
    }
    this.armed = null;
    this.previewing = null;
    this.answered = snap.version;
    this.sending = true;
    this.host.say(`Going on: ${OPTION_NAMES[choice]?.toLowerCase() || choice}…`);
    this.host.render();
    try {
      await this.host.send(choice);
      this.host.say('');
    } catch (e) {
      this.answered = null;
      this.host.say('');
      toast(errorText(e), 'error');
    } finally {
      this.sending = false;
      if (!this.host.running()) this.host.render();
    }
  }
}
