// The game's events in words, for the live region (screen readers) and the page's
// "Commentary" list.

import { lapMover } from './model.js';
import { other, sideName, describeOutcome, summarizeLaps } from '../board/notation.js';
import { announce } from '../core/ui.js';

/** @typedef {import('./model.js').Snapshot} Snapshot */
/** @typedef {import('./model.js').GameEvent} GameEvent */
/** @typedef {import('../board/notation.js').Side} Side */

/** Says what an event did. @param {GameEvent} ev @param {Snapshot} after the snapshot it made */
export function announceEvent(ev, after) {
  const name = (/** @type {Side} */ side) => `${after.seats[side]?.name || sideName(side)} (${sideName(side)})`;
  switch (ev.t) {
    case 'joined':
      announce(`${ev.d.name} joined as ${sideName(ev.d.seat)}.`);
      break;
    case 'started':
      announce(ev.d.to_move ? `The game has started. ${name(ev.d.to_move)} moves first.` : 'The game has started: both players play their opening at once.');
      break;
    case 'arranged':
      announce(ev.d.late
        ? `${name(ev.d.by)}'s time to arrange ran out: the referee placed their seeds in the outer row.`
        : `${name(ev.d.by)} has arranged their seeds.`);
      break;
    case 'played': {
      const by = lapMover(after.ruleset, ev.d.laps, ev.d.by);
      announce(`${name(by)} ${ev.d.stolen ? 'stole the turn and ' : ''}played ${ev.d.move}: ${summarizeLaps(ev.d.laps, ev.d.laps_omitted)}${ev.d.pending ? '; a choice follows' : ''}.`);
      break;
    }
    case 'decision':
      announce(after.you === ev.d.by ? `Your decision: ${ev.d.options.join(', ')}.` : `${name(ev.d.by)} is choosing: ${ev.d.options.join(', ')}.`);
      break;
    case 'steal':
      announce(after.you === other(ev.d.victim) ? `${name(ev.d.victim)}'s count ran out: you may steal the turn now.` : `${name(ev.d.victim)}'s referee count ran out: ${name(other(ev.d.victim))} may steal the turn.`);
      break;
    case 'impasse_proposed':
      announce(after.you && after.you !== ev.d.by
        ? `${name(ev.d.by)} proposes to stop at an impasse: accept or decline.`
        : `${name(ev.d.by)} proposed to stop at an impasse.`);
      break;
    case 'impasse_declined':
      announce(`${name(ev.d.by)} declined to stop: play goes on.`);
      break;
    case 'undone': {
      const moves = ev.d.moves === 1 ? '1 move' : `${ev.d.moves} moves`;
      const next = ev.d.pending ? `${name(/** @type {Side} */ (ev.d.to_move))} is choosing again`
        : ev.d.to_move ? `${name(ev.d.to_move)} to move` : 'the seeds being arranged';
      announce(`The relay took back the last entry: ${moves} played, ${next}.`);
      break;
    }
    case 'end': {
      const { title, detail } = describeOutcome(ev.d.outcome, name, after.ruleset, after.position);
      announce(`Game over. ${title}. ${detail}`);
      break;
    }
  }
}
