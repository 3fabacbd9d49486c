// The console's round: pairing the next one (by the server, or by hand), the pairing of a
// round not started yet with its breaches, starting it, and while it is played its clock
// and ending it early. The pairing editor itself is pairing.js.

import { ApiError, api } from '../core/api.js';
import { h, errorText } from '../core/ui.js';
import { plural } from '../core/plural.js';
import { ConsolePart } from './part.js';

/** @typedef {import('../tournament/tournamentstore.js').RoundView} RoundView */

/**
 * Why a round is closing: the director ended it, or its time ran out.
 * @param {import('../tournament/tournamentstore.js').RoundView} round
 */
export function roundEnding(round) {
  return round.ended_by_director ? `You ended round ${round.number}` : `Round ${round.number}'s time is up`;
}

export class RoundPart extends ConsolePart {
  get pairing() {
    return this.console.pairing;
  }

  /** @returns {{body: (Node | null)[], after: (Node | null)[]}} */
  draw() {
    const snap = this.snap;
    const round = this.lastRound();
    if (snap.status === 'finished') {
      return { body: [h('p', {}, 'Every round has been played.')], after: [] };
    }
    const planned = snap.rounds_planned || snap.settings.rounds;
    const of = planned ? ` of ${planned}` : '';
    if (!round || round.status === 'finished') {
      const next = round ? round.number + 1 : 1;
      const active = snap.players.filter((p) => !p.withdrawn).length;
      const pairing = this.pairing.draft && this.pairing.draft.base === '' ? this.pairing.draft : null;
      return { after: [], body: [
        h('p', {}, round ? `Round ${round.number} is over. Next: round ${next}${of}.` : `Round 1${of}.`,
          active < 2 ? ' At least two active players are needed to pair it.' : ''),
        h('div', { class: 'button-row' },
          this.button('pair', {
            class: 'button primary', 'data-pair-next': true,
            onclick: () => this.pairNext(next),
          }, `Pair round ${next}`),
          pairing ? null : this.button('pair-by-hand', {
            'data-pair-by-hand': true,
            onclick: () => this.pairing.byHand(next),
          }, `Pair round ${next} by hand`)),
        h('p', { class: 'muted small' }, 'The server pairs by the tournament\'s rules (no two players meet twice, forbidden pairs kept apart, one bye at most); you may change its pairing before you start the round.'),
        pairing ? this.pairing.draw(pairing, null) : null,
      ] };
    }
    if (round.status === 'paired') {
      const draft = /** @type {import('./pairing.js').Draft} */ (this.pairing.draft);
      return { body: [
        h('p', {}, `Round ${round.number}${of} is paired${round.manual ? ' (by you)' : ''}. Not started yet.`),
        round.breaches.length ? h('div', { class: 'director-breaches', 'data-breaches': round.number },
          h('p', {}, h('strong', {}, 'Rules broken on purpose in this round (recorded):')),
          h('ul', {}, round.breaches.map((b) => h('li', {}, b)))) : null,
        this.pairing.draw(draft, round),
        this.console.boardTables.draw(round),
      ], after: [
        h('div', { class: 'button-row director-start' },
          this.button('start', {
            class: 'button primary', 'data-start-round': round.number, disabled: this.pairing.dirty(),
            'aria-describedby': this.pairing.dirty() ? 'director-unsaved' : null,
            onclick: () => this.start(round.number),
          }, `Start round ${round.number}`)),
        this.pairing.dirty() ? h('p', { class: 'muted small', id: 'director-unsaved' }, 'Save or undo your changes to the pairing before starting the round.') : null,
      ] };
    }
    // playing
    const games = round.pairings.filter((p) => p.second !== null);
    const done = games.filter((p) => p.sheet).length;
    return { after: [], body: [
      h('p', {}, `Round ${round.number}${of} is being played: ${done} of ${plural(games.length, 'table')} finished.`),
      round.closing
        ? h('p', { class: 'director-closing' }, `${roundEnding(round)}: the unfinished games are being adjudicated.`)
        : round.deadline ? h('p', {}, 'Time left: ', h('strong', { class: 'director-deadline' }, this.countdown(round.deadline))) : null,
      h('div', { class: 'button-row' },
        this.button('end', {
          class: 'button danger', 'data-end-round': round.number, disabled: round.closing,
          onclick: () => this.end(round.number),
        }, 'End round now')),
      h('p', { class: 'muted small' }, 'Ending the round stops every unfinished game and adjudicates it: Omweso and Mweiso on the seeds on each side, Oware on the seeds captured. A table at the board without a sheet waits for you to enter its result (below, under the score sheets).'),
      this.console.boardTables.draw(round),
    ] };
  }

  /** @param {number} number */
  pairNext(number) {
    this.pairing.drop();
    this.act('pair', 'round',
      () => api('POST', `/api/tournaments/${this.store.id}/rounds`),
      (round) => `Round ${round?.number ?? number} is paired: check the tables, then start it.`,
      (e) => {
        if (e instanceof ApiError && e.code === 'no_pairing') {
          return `No pairing of round ${number} keeps the tournament's rules: ${e.message}. You can pair it by hand instead (the button above): the broken rule is then recorded.`;
        }
        if (e instanceof ApiError && e.code === 'round_not_ready') return `Round ${number} cannot be paired now: ${e.message}.`;
        return `Could not pair round ${number}: ${errorText(e)}`;
      });
  }

  /** @param {number} number */
  start(number) {
    this.act('start', 'round',
      () => api('POST', `/api/tournaments/${this.store.id}/rounds/${number}/start`),
      () => `Round ${number} has started: its games are being played.`,
      (e) => `Could not start round ${number}: ${errorText(e)}`);
  }

  /** @param {number} number */
  end(number) {
    if (!window.confirm(`End round ${number} now? Its unfinished games will be adjudicated on the seeds.`)) return;
    this.act('end', 'round',
      () => api('POST', `/api/tournaments/${this.store.id}/rounds/${number}/end`),
      () => `Round ${number} is ending: its unfinished games are adjudicated.`,
      (e) => `Could not end round ${number}: ${errorText(e)}`);
  }
}
