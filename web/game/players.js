// The people and the result: a card for each player (name, rating, side, connection,
// Oware's captures, the referee clock), the game's rules, whether it is rated, and
// watchers, the result with the rating changes, and resigning.

import { describeTimeControl, RULESET_NAMES } from '../core/words.js';
import { cardClock } from './clocks.js';
import { parsePosition, isOware, other, sideName, describeOutcome } from '../board/notation.js';
import { h, replace, toast, formatRemaining, errorText } from '../core/ui.js';
import { plural } from '../core/plural.js';
import { api } from '../core/api.js';
import { ratingText, changeText } from '../lobby/ratingtext.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('../board/notation.js').Side} Side */

const SIDES = /** @type {Side[]} */ (['s', 'n']);

/**
 * What the snapshot says of ratings (docs/protocol.md#ratings-addition): whether the game
 * is rated, and each account's seat's rating and, after a rated game, its change.
 * @typedef {import('../lobby/ratingtext.js').RatingBadge} RatingBadge
 * @typedef {{rating?: RatingBadge, rating_change?: number}} SeatRating
 * @typedef {{rated: boolean, s: SeatRating, n: SeatRating}} Ratings
 */

/** One seat's rating and change, from a snapshot's seat or a `ratings` frame. @param {SeatRating|null|undefined} s @returns {SeatRating} */
function seatRating(s) {
  return { rating: s?.rating, rating_change: s?.rating_change };
}

/** The ratings part of a snapshot. @param {unknown} snapshot @returns {Ratings} */
function ratingsOf(snapshot) {
  const snap = /** @type {{rated?: boolean, seats?: {s?: SeatRating|null, n?: SeatRating|null}}} */ (snapshot);
  return { rated: Boolean(snap.rated), s: seatRating(snap.seats?.s), n: seatRating(snap.seats?.n) };
}

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

/**
 * The way back from a game: to its tournament (the standings, the next round) when it is a
 * tournament's, else to the lobby.
 * @param {Snapshot} snap @param {string} cls @param {boolean} long "Back to the ..." or "← ..."
 */
function backLink(snap, cls, long) {
  if (snap.tournament) {
    return h('a', { class: cls, href: `/t/${encodeURIComponent(snap.tournament)}`, 'data-back': 'tournament' },
      long ? 'Back to the tournament' : '← Tournament');
  }
  return h('a', { class: cls, href: `/${location.search}`, 'data-back': 'lobby' }, long ? 'Back to the lobby' : '← Lobby');
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
    /** @type {Ratings | null} the ratings as last read */
    this.ratings = null;
    /** the seats and status they were read for */
    this.ratingsFor = '';
    /** `ratings` frames heard: a read started before the last one is out of date */
    this.ratingsHeard = 0;
  }

  /**
   * The seats' ratings as the socket's `ratings` says them: a rated game over whose sheet
   * rated it, or rated it again (docs/protocol.md#ratings-addition).
   * @param {{s?: SeatRating|null, n?: SeatRating|null}} now
   */
  heardRatings(now) {
    this.ratingsHeard += 1;
    this.ratings = { rated: true, s: seatRating(now.s), n: seatRating(now.n) };
  }

  /**
   * The ratings, read again when a seat is taken or the game ends (the events do not carry
   * them: a guest's join makes a rated game casual; the end brings the changes).
   * @param {Snapshot} snap
   */
  watchRatings(snap) {
    const key = `${snap.game_id}|${snap.status}|${snap.seats.s?.name ?? ''}|${snap.seats.n?.name ?? ''}`;
    if (key === this.ratingsFor) return;
    const first = !this.ratingsFor;
    this.ratingsFor = key;
    if (first) {
      this.ratings = ratingsOf(snap);
      return;
    }
    // A casual game has no ratings to read again (and a watcher may hold no session).
    if (!this.ratings?.rated && !ratingsOf(snap).rated) return;
    const heard = this.ratingsHeard;
    api('GET', `/api/games/${snap.game_id}`).then((fresh) => {
      if (this.ratingsFor !== key || this.ratingsHeard !== heard) return;
      this.ratings = ratingsOf(fresh);
      this.host.render();
    }, () => { /* the ratings stay as they were; the next change reads them again */ });
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
    this.watchRatings(snap);
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
    // Whether a player has this page open says something only while they play it here: a
    // relayed game's players are at the wooden board, and a game over needs nobody.
    const over = snap.status === 'finished' || snap.status === 'annulled';
    const where = !seat ? 'empty' : snap.relayed && !over ? 'board' : over ? 'over' : String(connected);
    let captured = null;
    if (snap.position && isOware(snap.ruleset)) {
      const pos = parsePosition(snap.ruleset, snap.position);
      captured = h('span', { class: 'captures' }, `${pos.captures[side === 's' ? 0 : 1]} captured`);
    }
    // The computer is always at the table: a badge, not a connection to watch.
    const computer = seat?.computer;
    const rated = seat ? this.ratings?.[side] : undefined;
    const change = rated?.rating_change;
    const dot = { empty: 'none', board: 'board', over: 'over', true: 'on', false: 'off' }[where];
    const title = {
      empty: 'empty seat', board: 'at the wooden board', over: 'the game is over',
      true: computer ? 'the computer' : 'connected', false: 'not connected',
    }[where];
    replace(card,
      h('span', { class: `dot ${dot}`, 'data-connected': where, title }),
      h('span', { class: 'player-name' }, seat ? seat.name : 'Waiting for a player…'),
      rated?.rating ? h('span', { class: 'player-rating muted', 'data-rating': ratingText(rated.rating), title: rated.rating.provisional ? 'provisional rating' : 'rating' }, ` ${ratingText(rated.rating)}`) : null,
      change !== undefined ? h('strong', { class: `rating-change ${change > 0 ? 'up' : change < 0 ? 'down' : ''}`, 'data-rating-change': change }, ` ${changeText(change)}`) : null,
      computer ? h('span', { class: 'computer-badge small', 'data-computer': computer.level }, 'computer') : null,
      h('span', { class: 'player-side muted' }, ` ${sideName(side)}${snap.you === side ? ' (you)' : ''}`),
      where === 'false' ? h('span', { class: 'offline muted small' }, ` not connected${away}`) : null,
      where === 'board' ? h('span', { class: 'at-board muted small', 'data-at-board': true }, ' at the board') : null,
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
      snap.seats.s?.computer || snap.seats.n?.computer ? null
        : h('p', { class: 'small', 'data-rated': String(Boolean(this.ratings?.rated)) }, this.ratings?.rated ? 'Rated: the result changes both ratings' : 'Casual: not rated'),
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
      this.ratingLine(name),
      h('p', { class: 'muted small' }, `${plural(snap.history.length, 'move')}.`),
      backLink(snap, 'button primary', true)));
  }

  /**
   * What a rated game did to both ratings, `Kato (South) 1500 +241 · ...`; nothing for a
   * casual game, or before the changes are read.
   * @param {(side: Side) => string} name
   */
  ratingLine(name) {
    const parts = SIDES.flatMap((side) => {
      const seat = this.ratings?.[side];
      if (!seat?.rating || seat.rating_change === undefined) return [];
      const after = seat.rating.rating + seat.rating_change;
      return [`${name(side)} ${seat.rating.rating} → ${after} (${changeText(seat.rating_change)})`];
    });
    if (!this.ratings?.rated || !parts.length) return null;
    return h('p', { class: 'small', 'data-rating-line': true }, `Ratings: ${parts.join(' · ')}`);
  }

  /** The way back to the lobby, and resigning (two clicks). @param {Snapshot} snap */
  renderResign(snap) {
    clearTimeout(this.resignTimer);
    const lobby = backLink(snap, 'button secondary small', false);
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
