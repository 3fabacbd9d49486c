// Oware's impasse (docs/rules.md#3-oware-abapa, docs/protocol.md "The impasse"): a player may propose to
// stop when neither can capture again; if the other accepts, the seeds left are split
// evenly (the odd one to the side with more on it) and the game is scored on captures.
// This panel holds the proposal button for a player, the offer with Accept / Decline for
// their opponent, and what a spectator (or the proposer) sees while it stands.

import { isOware, other, parsePosition, rowOf, sideName } from '../board/notation.js';
import { h, replace, toast, errorText } from '../core/ui.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('../board/notation.js').Side} Side */

/**
 * The seeds on each side of an Oware position, and how an agreed stop would split them:
 * evenly, the odd one to the side with more; `after` the captures it would end with.
 * @param {string} position
 * @returns {{left: number, split: {s: number, n: number}, after: {s: number, n: number}} | null}
 */
export function impasseSplit(position) {
  let pos;
  try {
    pos = parsePosition('oware', position);
  } catch {
    return null;
  }
  // South's houses are row 1, North's row 2.
  const on = (/** @type {Side} */ side) => pos.cells.reduce((a, seeds, cell) => a + (rowOf('oware', cell) === (side === 's' ? 1 : 2) ? seeds : 0), 0);
  const south = on('s');
  const north = on('n');
  const left = south + north;
  const half = Math.floor(left / 2);
  const odd = left % 2;
  const split = south > north ? { s: half + odd, n: half } : { s: half, n: half + odd };
  return { left, split, after: { s: pos.captures[0] + split.s, n: pos.captures[1] + split.n } };
}

/**
 * What stopping now would give, in words, said to `me` (or of both players to a watcher).
 * @param {string} position @param {(side: Side) => string} name @param {Side | null} me
 */
function splitWords(position, name, me) {
  const s = impasseSplit(position);
  if (!s) return '';
  const seeds = `${s.left} seed${s.left === 1 ? '' : 's'}`;
  const share = me
    ? `you would take ${s.split[me]} and ${name(other(me))} ${s.split[other(me)]}`
    : `${name('s')} would take ${s.split.s} and ${name('n')} ${s.split.n}`;
  const [a, b] = me ? [s.after[me], s.after[other(me)]] : [s.after.s, s.after.n];
  let result;
  if (s.after.s === s.after.n) result = 'a draw';
  else if (me) result = a > b ? 'you win' : `${name(other(me))} wins`;
  else result = `${name(s.after.s > s.after.n ? 's' : 'n')} wins`;
  return `The ${seeds} left would be split evenly (${share}), ending it ${a}–${b} on captures: ${result}.`;
}

export class ImpassePanel {
  /**
   * @param {{propose: () => Promise<void>, answer: (accept: boolean) => Promise<void>,
   *   render: () => void}} host
   */
  constructor(host) {
    this.host = host;
    this.el = h('section', { class: 'impasse-panel', id: 'impasse-panel', 'aria-label': 'Stop at an impasse', hidden: true });
    /** A message is on its way: the buttons wait. */
    this.sending = false;
  }

  /** @param {Snapshot} snap @param {{reviewing: boolean}} view */
  render(snap, { reviewing }) {
    const panel = this.el;
    const me = snap.you;
    const standing = snap.impasse && !snap.impasse.split ? snap.impasse.proposed_by : null;
    if (!isOware(snap.ruleset) || snap.status !== 'playing' || reviewing || !snap.position || (!me && !standing)) {
      panel.hidden = true;
      replace(panel);
      return;
    }
    panel.hidden = false;
    panel.classList.toggle('offer', Boolean(standing && me && standing !== me));
    const name = (/** @type {Side} */ side) => snap.seats[side]?.name || sideName(side);
    if (standing && me && standing !== me) {
      replace(panel,
        h('div', { class: 'impasse-offer', role: 'alert', 'data-impasse-offer': standing },
          h('p', {}, h('strong', {}, `${name(standing)} proposes to stop: an impasse. `),
            'Neither of you can capture again, they say. ', splitWords(snap.position, name, me)),
          h('div', { class: 'impasse-buttons' },
            h('button', {
              type: 'button', class: 'button primary big', 'data-impasse-accept': true, disabled: this.sending,
              onclick: () => this.send(() => this.host.answer(true)),
            }, 'Accept and stop'),
            h('button', {
              type: 'button', class: 'button secondary big', 'data-impasse-decline': true, disabled: this.sending,
              onclick: () => this.send(() => this.host.answer(false)),
            }, 'Decline, play on'))));
      return;
    }
    if (standing) {
      const text = standing === me
        ? [h('strong', {}, 'You proposed to stop (impasse). '), `Waiting for ${name(other(standing))}'s answer; the proposal lapses when you play your next turn.`]
        : [h('strong', {}, `${name(standing)} proposed to stop (impasse). `), `Waiting for ${name(other(standing))}'s answer. `, splitWords(snap.position, name, null)];
      replace(panel, h('p', { class: 'impasse-standing', 'data-impasse-standing': standing }, ...text));
      return;
    }
    replace(panel,
      h('p', { class: 'small muted' },
        'When neither player can capture again (a few seeds chasing each other round the board), either may propose to stop. ',
        splitWords(snap.position, name, me)),
      h('button', {
        type: 'button', class: 'button secondary big', 'data-impasse-propose': true, disabled: this.sending,
        onclick: () => this.send(() => this.host.propose()),
      }, 'Propose to stop (impasse)'));
  }

  /** Sends a proposal or an answer, the buttons waiting meanwhile. @param {() => Promise<void>} act */
  async send(act) {
    if (this.sending) return;
    this.sending = true;
    this.host.render();
    try {
      await act();
    } catch (e) {
      toast(errorText(e), 'error');
    }
    this.sending = false;
    this.host.render();
  }
}
