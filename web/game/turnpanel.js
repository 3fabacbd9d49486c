// The prompt under the board: whatever the game waits for, in words - an opponent (the
// invite link, or the free seat to take), the seeds' arrangement, a move, a decision, the
// steal - or that the viewer is looking at an earlier position.

import { api, ApiError } from '../core/api.js';
import { canArrange } from './arrange.js';
import { abandonLine, moveLimitLine, refereeLine } from './clocks.js';
import { other, sideName } from '../board/notation.js';
import { ensureSession } from '../core/session.js';
import { myDecision, myStarts, myTurn } from './viewer.js';
import { h, replace, toast, errorText } from '../core/ui.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('../board/notation.js').Side} Side */
/** @typedef {import('../board/notation.js').Lap} Lap */

const SIDES = /** @type {Side[]} */ (['s', 'n']);

export class TurnPanel {
  /**
   * @param {{gameId: string, rejoin: () => void, decision: import('./decision.js').DecisionPanel,
   *   editor: import('./arrange.js').SetupEditor}} host `rejoin`: connect afresh (a seat taken)
   */
  constructor(host) {
    this.host = host;
    this.el = h('section', { class: 'turn-panel', id: 'turn-panel', 'aria-label': 'Your move' });
  }

  /** Dims the prompt while a turn is drawn. @param {boolean} on */
  dim(on) {
    this.el.classList.toggle('dimmed', on);
  }

  /**
   * @param {Snapshot} snap
   * @param {{reviewing: boolean, hand: Lap | null}} view `hand`: the lap that left seeds in hand
   */
  render(snap, { reviewing, hand }) {
    const panel = this.el;
    const me = snap.you;
    const name = (/** @type {Side} */ side) => snap.seats[side]?.name || sideName(side);
    panel.removeAttribute('data-steal-open');
    panel.classList.remove('steal', 'your-turn', 'decision');
    if (reviewing) {
      const waiting = myTurn(snap) || myDecision(snap);
      replace(panel, h('p', { class: waiting ? 'prompt' : 'muted' }, 'You are looking at an earlier position.',
        waiting ? h('strong', {}, ' It is your move: go back to the game to play.') : null));
      return;
    }
    if (snap.status === 'finished' || snap.status === 'annulled') {
      replace(panel);
      return;
    }
    if (snap.status === 'setup') {
      replace(panel, ...this.setupParts(snap));
      return;
    }
    const parts = [];
    if (snap.clock.steal_open && snap.to_move && !snap.pending_move) {
      const victim = snap.to_move;
      panel.classList.add('steal');
      let text;
      if (me === other(victim)) text = [h('strong', {}, 'Steal the turn!'), ` ${name(victim)}'s referee count ran out: play any of your pits now and the turn is yours.`];
      else if (me === victim) text = [h('strong', {}, 'Your count ran out!'), ` ${name(other(victim))} may steal this turn — move now.`];
      else text = [h('strong', {}, 'Steal open: '), `${name(victim)}'s count ran out; whoever moves first plays this turn.`];
      parts.push(h('div', { class: 'steal-banner', 'data-steal-open': victim, role: 'alert' }, ...text, abandonLine()));
    }
    if (myDecision(snap)) {
      // Once answered, the decision leaves the screen: the turn goes on.
      if (this.host.decision.isOpen(snap)) {
        panel.classList.add('decision');
        parts.push(...this.host.decision.parts(snap, hand));
      }
    } else if (snap.pending_move && snap.to_move) {
      parts.push(h('p', {}, `${name(snap.to_move)} is choosing how to go on (${(snap.pending || []).join(', ') || '…'}).`));
      parts.push(moveLimitLine());
    } else if (snap.opening.length) {
      const mine = me && snap.opening.includes(me);
      parts.push(h('p', { class: mine ? 'prompt' : '' },
        mine ? h('strong', {}, 'Opening: ') : null,
        mine ? 'both players sow at once. Choose an outer-row pit (not the 4th or 5th from your left); the first to finish moves first in the main game.'
          : `Mweiso opening: ${snap.opening.map(name).join(' and ')} ${snap.opening.length > 1 ? 'are' : 'is'} sowing.`));
      if (me && !mine) parts.push(h('p', { class: 'muted' }, 'Your opening is played; waiting for the other.'));
    } else if (me && snap.to_move === me) {
      panel.classList.add('your-turn');
      if (!snap.clock.steal_open) {
        const reverse = myStarts(snap).some((t) => t.endsWith("'"));
        parts.push(h('p', { class: 'prompt' }, h('strong', {}, 'Your turn. '),
          `Choose a highlighted pit${reverse ? '; the ↻ button next to a reverse pit sows it clockwise' : ''}. Keyboard: Tab to a pit, Enter to sow.`));
      }
      parts.push(refereeLine());
    } else if (snap.to_move) {
      const thinking = snap.seats[snap.to_move]?.computer;
      if (!snap.clock.steal_open) parts.push(h('p', { 'data-computer-thinking': thinking ? 'true' : null }, thinking ? `${name(snap.to_move)} is thinking…` : `${name(snap.to_move)} to move.`));
      parts.push(refereeLine());
    }
    if (!me && snap.status === 'playing') parts.push(h('p', { class: 'muted small' }, 'You are watching this game.'));
    replace(panel, ...parts);
  }

  /** Before the start: the invite, the free seat, or the arrangements. @param {Snapshot} snap */
  setupParts(snap) {
    const me = snap.you;
    const free = SIDES.find((side) => !snap.seats[side]);
    if (free && me) return [this.invite(`${location.origin}/g/${snap.game_id}`)];
    if (free) {
      const host = snap.seats[other(free)]?.name || 'Someone';
      return [h('div', { class: 'join' },
        h('p', {}, h('strong', {}, `${host} is waiting for an opponent.`), ` Take the free seat to play ${sideName(free)}${free === 's' ? ' (you move first)' : ''}, or stay and watch.`),
        h('button', { type: 'button', class: 'button primary big', 'data-join-seat': free, onclick: () => this.join() }, `Join the game as ${sideName(free)}`))];
    }
    if (snap.setup !== 'free') return [h('p', {}, 'Starting…')];
    if (me && canArrange(snap)) return [this.host.editor.panel(snap, me)];
    const owing = SIDES.filter((side) => !snap.arrangements[side]);
    const waiting = owing.includes('s') ? 's' : 'n';
    const parts = [h('p', {}, `Free setup: ${snap.seats[waiting]?.name || sideName(waiting)} is arranging their 32 seeds${waiting === 's' ? ' (South arranges first)' : ''}.`),
      h('p', { class: 'arrange-clock', 'data-arrange-clock': true })];
    if (me && me === 'n' && owing.includes('s')) parts.push(h('p', { class: 'muted' }, 'You arrange yours after South, seeing their arrangement.'));
    return parts;
  }

  /** The invite link, to copy or share. @param {string} url */
  invite(url) {
    const input = h('input', { type: 'text', readonly: true, value: url, id: 'invite-link', 'data-invite': url, 'aria-label': 'Invite link' });
    return h('div', { class: 'invite' },
      h('p', {}, h('strong', {}, 'Waiting for an opponent. '), 'Send them this link:'),
      h('div', { class: 'invite-row' }, input,
        h('button', {
          type: 'button', class: 'button primary', 'data-copy-invite': true,
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(url);
              toast('Link copied.');
            } catch {
              input.select();
              toast('Select the link and copy it.');
            }
          },
        }, 'Copy'),
        'share' in navigator ? h('button', {
          type: 'button', class: 'button secondary',
          onclick: () => navigator.share({ title: 'Play Omweso with me', url }).catch(() => {}),
        }, 'Share') : null));
  }

  /** Takes the free seat (asking for a name first if need be). */
  async join() {
    try {
      await ensureSession('Choose the name your opponent sees.');
      await api('POST', `/api/games/${this.host.gameId}/join`);
      // The seat is bound to the socket when it connects: connect again, afresh.
      this.host.rejoin();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) toast('Both seats are taken now: you can watch.', 'error');
      else if (!(e instanceof Error && e.message === 'cancelled')) toast(errorText(e), 'error');
    }
  }
}
