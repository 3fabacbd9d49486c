// The decision panel: when a turn may go on more than one way, its options as buttons,
// each with what it would do in words and, while pointed at or focused, on the board. A
// choice that annuls the game needs a second click (RULES.md 1.4). Once the player has
// answered, the panel leaves the screen (it comes back if the server refuses).

import { api } from './api.js';
import { moveLimitLine } from './clocks.js';
import { cellOf, summarizeLaps } from './notation.js';
import { myDecision } from './viewer.js';
import { h, toast, errorText } from './ui.js';

/** @typedef {import('./game.js').Snapshot} Snapshot */
/** @typedef {import('./notation.js').Lap} Lap */
/**
 * What the server's preview says an answer would do.
 * @typedef {{laps: Lap[], position: string, pending: boolean, options: string[]|null,
 *   outcome: import('./notation.js').Outcome|null}} Preview
 */

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

export class DecisionPanel {
  /**
   * @param {{gameId: string, snap: () => Snapshot | null, send: (choice: string) => Promise<void>,
   *   render: () => void, renderBoard: () => void, running: () => boolean,
   *   say: (text: string) => void}} host `running`: events are being drawn; `say`: the
   *   line under the board
   */
  constructor(host) {
    this.host = host;
    /** @type {Map<string, Preview | 'error'>} by `version|option` */
    this.previews = new Map();
    this.previewKey = '';
    /** @type {Promise<void>[]} the previews asked for the decision shown */
    this.previewRequests = [];
    /** @type {Map<string, HTMLElement>} the preview texts on the screen, by option */
    this.texts = new Map();
    /** @type {string | null} the option previewed on the board */
    this.previewing = null;
    /** @type {string | null} an option that annuls the game, clicked once */
    this.armed = null;
    /** @type {number | null} the version of the decision answered (its panel is gone) */
    this.answered = null;
    /** An answer is on its way to the server. */
    this.sending = false;
  }

  /** Does the viewer's decision wait on the screen (not answered yet)? @param {Snapshot} snap */
  isOpen(snap) {
    return myDecision(snap) && this.answered !== snap.version;
  }

  /** The position changed under the previews: ask again. */
  reset() {
    this.previews.clear();
    this.previewKey = '';
  }

  /**
   * The board to show instead of the game: the option pointed at, once its preview is in.
   * @param {Snapshot} snap
   * @returns {{option: string, position: string} | null}
   */
  boardPreview(snap) {
    const option = this.previewing;
    if (!option || !this.isOpen(snap) || this.previewKey !== `${snap.version}`) return null;
    const preview = this.previews.get(`${this.previewKey}|${option}`);
    return preview && preview !== 'error' ? { option, position: preview.position } : null;
  }

  /**
   * The panel's contents.
   * @param {Snapshot} snap
   * @param {Lap | null} hand the lap that left seeds in hand, if any
   */
  parts(snap, hand) {
    const options = snap.pending || [];
    const key = `${snap.version}`;
    if (this.previewKey !== key) {
      this.previewKey = key;
      this.previewing = null;
      this.armed = null;
      this.previewRequests = options.map((option) => this.fetchPreview(key, option));
    }
    const pits = options.filter((o) => cellOf(snap.ruleset, o) >= 0);
    const intro = pits.length === options.length
      ? 'Choose the pit to go on from, anticlockwise (or click it on the board).'
      : hand && hand.kind === 'capture'
        ? `You captured ${hand.captured}. How do you sow them on?`
        : 'Your lap may go on either way. Which way?';
    this.texts.clear();
    const buttons = options.map((option) => {
      const armed = this.armed === option;
      const text = h('span', { class: 'choice-preview small', id: `choice-${option}-preview`, 'data-preview': option },
        this.previewText(this.previews.get(`${key}|${option}`), help(option)));
      this.texts.set(option, text);
      return h('button', {
        type: 'button', class: `button choice ${armed ? 'armed' : ''}`, 'data-choice': option, disabled: this.sending,
        'aria-describedby': `choice-${option}-preview`,
        onclick: () => this.decide(option),
        onpointerenter: () => this.showPreview(option),
        onpointerleave: () => this.showPreview(null),
        onfocus: () => this.showPreview(option),
        onblur: () => this.showPreview(null),
      },
      h('span', { class: 'choice-name' }, armed ? 'Confirm: annul the game' : OPTION_NAMES[option] || option),
      h('span', { class: 'choice-token' }, option),
      text);
    });
    return [
      h('p', { class: 'prompt' }, h('strong', {}, 'Decision: '), intro),
      h('div', { class: 'choices', role: 'group', 'aria-label': 'Options' }, buttons),
      h('p', { class: 'muted small' }, 'Point at (or focus) an option to see its result on the board.'),
      moveLimitLine(),
    ];
  }

  /** @param {Preview | 'error' | undefined} preview @param {string} fallback */
  previewText(preview, fallback) {
    if (!preview) return `${fallback} · working out…`;
    if (preview === 'error') return fallback;
    const parts = [summarizeLaps(preview.laps)];
    if (preview.pending) parts.push('then another choice');
    if (preview.outcome) {
      if (preview.outcome.result === 'annulled') parts.push('⚠ the game would be annulled');
      else if (preview.outcome.result === 'win') parts.push(preview.outcome.winner === this.host.snap()?.you ? `you win (${preview.outcome.victory})` : `you lose (${preview.outcome.victory})`);
    }
    return `${fallback} — ${parts.join('; ')}`;
  }

  /** @param {string} key @param {string} option */
  async fetchPreview(key, option) {
    const id = `${key}|${option}`;
    try {
      this.previews.set(id, await api('POST', `/api/games/${this.host.gameId}/preview`, { choice: option }));
    } catch {
      this.previews.set(id, 'error');
    }
    if (this.previewKey !== key || this.host.running()) return;
    const el = this.texts.get(option);
    if (el) el.textContent = this.previewText(this.previews.get(id), help(option));
    if (this.previewing === option) this.host.renderBoard();
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
    this.sending = true;
    this.host.render();
    // The previews asked for this decision are answered first: asked after the answer,
    // the server would refuse them (there would be no decision left to preview).
    await Promise.allSettled(this.previewRequests);
    const preview = this.previews.get(`${this.previewKey}|${choice}`);
    if (preview && preview !== 'error' && preview.outcome?.result === 'annulled' && this.armed !== choice) {
      // RULES.md 1.4: warn before sending a choice that annuls the game.
      this.armed = choice;
      this.sending = false;
      toast('This choice never ends (or runs past the move limit): the game would be annulled. Choose it again to confirm.', 'error');
      this.host.render();
      return;
    }
    this.armed = null;
    this.previewing = null;
    this.answered = snap.version;
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
