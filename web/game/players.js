// The people and the result: a card for each player (name, side, connection, Oware's
// captures, the referee clock), the game's rules and watchers, the result, and resigning.

import { describeTimeControl, RULESET_NAMES } from '../core/words.js';
import { cardClock } from './clocks.js';
import { parsePosition, isOware, other, sideName, describeOutcome } from '../board/notation.js';
import { h, replace, toast, formatRemaining, errorText } from '../core/ui.js';
import { plural } from '../core/plural.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('../board/notation.js').Side} Side */

const SIDES = /** @type {Side[]} */ (['s', 'n']);

/**
 * How an agreed impasse ended the game: who proposed, and the split of the seeds left.
 * @param {Snapshot} snap @param {(side: Side) => string} name
 */
export function impasseWords(snap, name) {
  const impasse = snap.impasse;
  if (!impasse?.split) return '';
  const { s, n } = impasse.split;
  const left = s + n;
  const seeds = `${left} seed${left === 1 ? '' : 's'}`;
  const odd = left % 2 ? `, ${name(s > n ? 's' : 'n')} keeping the odd one` : '';
  return `The game ended by agreement at an impasse (${name(impasse.proposed_by)} proposed it): the ${seeds} left were split ${s}–${n}${odd}, and the captures decided.`;
}

function eyeIcon() {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.innerHTML = '<path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.2" fill="currentColor"/>';
  return svg;
}

export class Players {
  /** @param {{resign: () => Promise<void>, render: () => void}} host */
  constructor(host) {
    this.host = host;
    this.topCard = h('div', { class: 'player-card top' });
    this.bottomCard = h('div', { class: 'player-card bottom' });
    this.infoBox = h('div', { class: 'info' });
    this.outcomeBox = h('div', { class: 'outcome-box' });
    this.resignBox = h('div', { class: 'resign-box' });
    /** @type {{s: number, n: number}} when each player was seen going away */
    this.awaySince = { s: 0, n: 0 };
    this.resignArmed = false;
    /** @type {number | undefined} */
    this.resignTimer = undefined;
  }

  /** Notes who went away or came back. @param {Snapshot} shown @param {Snapshot} latest */
  seen(shown, latest) {
    for (const side of SIDES) {
      const was = shown.seats[side]?.connected;
      const now = latest.seats[side]?.connected;
      if (was && !now) this.awaySince[side] = Date.now();
      if (now) this.awaySince[side] = 0;
    }
  }

  /** @param {Snapshot} snap @param {Side} bottom the side at the bottom of the board */
  renderCards(snap, bottom) {
    this.fillCard(this.bottomCard, snap, bottom);
    this.fillCard(this.topCard, snap, other(bottom));
  }

  /** @param {HTMLElement} card @param {Snapshot} snap @param {Side} side */
  fillCard(card, snap, side) {
    const seat = snap.seats[side];
    const playing = snap.status === 'playing';
    card.setAttribute('data-seat', side);
    card.classList.toggle('to-move', playing && (snap.to_move === side || snap.opening.includes(side)));
    card.classList.toggle('stolen-from', playing && snap.clock.steal_open && snap.to_move === side);
    const connected = seat?.connected ?? false;
    const away = seat && !connected && playing && this.awaySince[side]
      ? ` · offline ${formatRemaining(Date.now() - this.awaySince[side])}` : '';
    let captured = null;
    if (snap.position && isOware(snap.ruleset)) {
      const pos = parsePosition(snap.ruleset, snap.position);
      captured = h('span', { class: 'captures' }, `${pos.captures[side === 's' ? 0 : 1]} captured`);
    }
    // The computer is always at the table: a badge, not a connection to watch.
    const computer = seat?.computer;
    replace(card,
      h('span', { class: `dot ${seat ? (connected ? 'on' : 'off') : 'none'}`, 'data-connected': seat ? String(connected) : 'empty', title: seat ? (computer ? 'the computer' : connected ? 'connected' : 'not connected') : 'empty seat' }),
      h('span', { class: 'player-name' }, seat ? seat.name : 'Waiting for a player…'),
      computer ? h('span', { class: 'computer-badge small', 'data-computer': computer.level }, 'computer') : null,
      h('span', { class: 'player-side muted' }, ` ${sideName(side)}${snap.you === side ? ' (you)' : ''}`),
      seat && !connected ? h('span', { class: 'offline muted small' }, ` not connected${away}`) : null,
      captured,
      cardClock(side),
    );
  }

  /** The rules, the time control and the watchers. @param {Snapshot} snap */
  renderInfo(snap) {
    const rules = RULESET_NAMES[snap.ruleset] || snap.ruleset;
    const start = snap.ruleset === 'omweso' ? ` · ${snap.setup} start` : '';
    replace(this.infoBox,
      h('h2', {}, `${rules}${start}`),
      h('p', { class: 'small muted' }, describeTimeControl(snap.time_control)),
      h('p', { class: 'small spectators' }, eyeIcon(), h('span', { 'data-spectators': snap.spectators }, `${snap.spectators} watching`)));
  }

  /** @param {Snapshot} snap */
  renderOutcome(snap) {
    const outcome = snap.outcome;
    if (!outcome || (snap.status !== 'finished' && snap.status !== 'annulled')) {
      replace(this.outcomeBox);
      this.outcomeBox.hidden = true;
      return;
    }
    const name = (/** @type {Side} */ side) => `${snap.seats[side]?.name || sideName(side)} (${sideName(side)})`;
    const { title, detail } = describeOutcome(outcome, name, snap.ruleset, snap.position);
    const mine = outcome.result === 'win' && snap.you ? (outcome.winner === snap.you ? 'won' : 'lost') : '';
    this.outcomeBox.hidden = false;
    replace(this.outcomeBox,
      h('div', {
        class: `outcome ${mine}`, role: 'status', 'data-outcome': outcome.result,
        'data-winner': outcome.result === 'win' ? outcome.winner : null,
        'data-victory': outcome.result === 'win' ? outcome.victory : outcome.result === 'annulled' ? outcome.reason : null,
      },
      h('h2', {}, mine === 'won' ? `You win! ${title}` : mine === 'lost' ? `You lose. ${title}` : title),
      h('p', {}, detail),
      snap.impasse?.split ? h('p', { 'data-impasse-split': `${snap.impasse.split.s}-${snap.impasse.split.n}` }, impasseWords(snap, name)) : null,
      h('p', { class: 'muted small' }, `${plural(snap.history.length, 'move')}.`),
      h('a', { class: 'button primary', href: `/${location.search}` }, 'Back to the lobby')));
  }

  /** The way back to the lobby, and resigning (two clicks). @param {Snapshot} snap */
  renderResign(snap) {
    clearTimeout(this.resignTimer);
    const lobby = h('a', { href: `/${location.search}`, class: 'button secondary small' }, '← Lobby');
    const playing = snap.status === 'playing' || (snap.status === 'setup' && snap.seats.s && snap.seats.n);
    if (!snap.you || !playing) {
      replace(this.resignBox, lobby);
      return;
    }
    /** @param {boolean} on */
    const arm = (on) => {
      this.resignArmed = on;
      this.host.render();
    };
    if (!this.resignArmed) {
      replace(this.resignBox, lobby, ' ',
        h('button', { type: 'button', class: 'button danger small', 'data-resign': true, onclick: () => arm(true) }, 'Resign'));
      return;
    }
    this.resignTimer = window.setTimeout(() => arm(false), 6000);
    replace(this.resignBox,
      h('span', {}, 'Resign this game? '),
      h('button', {
        type: 'button', class: 'button danger small', 'data-resign-confirm': true,
        onclick: async () => {
          this.resignArmed = false;
          try {
            await this.host.resign();
          } catch (e) {
            toast(errorText(e), 'error');
          }
          this.host.render();
        },
      }, 'Yes, resign'), ' ',
      h('button', { type: 'button', class: 'button secondary small', onclick: () => arm(false) }, 'Cancel'));
  }
}
