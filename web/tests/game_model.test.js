// The game page's model (game/model.js) as node unit tests, without a browser: who moves
// by a position's side field, whose laps a `played` event carries, the connection flags
// kept on an older snapshot, and the events tests/notation.test.js does not replay (an
// arrangement, a count, a steal without a clock, an annulment), each result worked out by
// hand and compared whole.

import test from 'node:test';
import assert from 'node:assert/strict';

import { applyEvent, lapMover, mergeSeats, sideField } from '../game/model.js';

/** @typedef {import('../game/model.js').Snapshot} Snapshot */

const START = '4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s';
const NO_CLOCK = { referee_deadline: null, steal_open: false, move_deadline: null };

/** A game of Omweso between Kato (South, the viewer) and Nakato, South to move. @returns {Snapshot} */
function playing() {
  return {
    game_id: 'g', ruleset: 'omweso', setup: 'outer',
    time_control: { referee_seconds: 3, move_limit_seconds: 180, sowing_pace: 4, akakyala: false, abandon_seconds: 60, disconnect_grace_seconds: 120 },
    status: 'playing', position: START, to_move: 's', opening: [],
    seats: { s: { name: 'Kato', connected: true }, n: { name: 'Nakato', connected: false } },
    you: 's', legal_moves: [], pending: null, pending_move: null, legal: { s: { moves: ['A1'], starts_only: false, starts: [] } },
    pending_results: null, clock: { referee_deadline: 5000, steal_open: false, move_deadline: 9000 },
    history: [], outcome: null, spectators: 2, version: 4, arrangements: { s: null, n: null },
  };
}

test('the side field: who moves, and who still owes Mweiso\'s opening', () => {
  assert.deepEqual(sideField(START), { toMove: 's', opening: [] });
  assert.deepEqual(sideField(START.replace(/ s$/, ' n')), { toMove: 'n', opening: [] });
  assert.deepEqual(sideField(START.replace(/ s$/, ' o')), { toMove: null, opening: ['s', 'n'] });
  assert.deepEqual(sideField(START.replace(/ s$/, ' on')), { toMove: 'n', opening: ['n'] });
  assert.deepEqual(sideField(START.replace(/ s$/, ' os')), { toMove: 's', opening: ['s'] });
  // Oware's position carries the captures after the side.
  assert.deepEqual(sideField('4,4,4,4,4,4/4,4,4,4,4,4 n 0 0'), { toMove: 'n', opening: [] });
});

test('whose laps: the owner of the first lap\'s pit', () => {
  /** @param {string} from */
  const lap = (from) => ({ from, dir: /** @type {const} */ ('a'), seeds: 4, to: 'A1', kind: /** @type {const} */ ('end'), captured: 0 });
  // Omweso: rows 1 and 2 are South's, 3 and 4 North's.
  assert.equal(lapMover('omweso', [lap('C2')], 'n'), 's');
  assert.equal(lapMover('omweso', [lap('H3')], 's'), 'n');
  // Oware: row 1 South's, row 2 North's; its columns stop at F.
  assert.equal(lapMover('oware', [lap('F2')], 's'), 'n');
  assert.equal(lapMover('oware', [lap('A1')], 'n'), 's');
  // No laps, or a pit it cannot read: the side it was told.
  assert.equal(lapMover('omweso', [], 'n'), 'n');
  assert.equal(lapMover('omweso', [lap('pass')], 's'), 's');
});

test('the seats shown keep their names and take the connection flags of the newer model', () => {
  const shown = playing();
  const latest = { ...playing(), seats: { s: { name: 'Kato', connected: false }, n: { name: 'Nakato (renamed)', connected: true } } };
  assert.deepEqual(mergeSeats(shown, latest), { s: { name: 'Kato', connected: false }, n: { name: 'Nakato', connected: true } });
  // A seat empty on either side stays as shown.
  const empty = { ...playing(), seats: { s: { name: 'Kato', connected: true }, n: null } };
  assert.deepEqual(mergeSeats(empty, latest), { s: { name: 'Kato', connected: false }, n: null });
});

test('an arrangement, a count, a steal and an annulment, applied', () => {
  const setup = { ...playing(), status: /** @type {const} */ ('setup'), position: null, to_move: null, legal: {} };
  const pits = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];
  const arrangeClock = { ...NO_CLOCK, arrange_deadline: 70000 };
  assert.deepEqual(applyEvent(setup, { t: 'arranged', v: 5, d: { by: 's', pits, clock: arrangeClock } }),
    { ...setup, version: 5, arrangements: { s: pits, n: null }, clock: arrangeClock });
  // Without a clock, the clock stays.
  assert.deepEqual(applyEvent(setup, { t: 'arranged', v: 5, d: { by: 'n', pits } }).clock, setup.clock);

  const count = { referee_deadline: 8000, steal_open: false, move_deadline: 9000 };
  assert.deepEqual(applyEvent(playing(), { t: 'count', v: 5, d: { clock: count } }),
    { ...playing(), version: 5, clock: count });

  // A steal with no clock opens the steal on the clock it had, the referee count over.
  const north = { moves: ['H4'], starts_only: false, starts: [] };
  assert.deepEqual(applyEvent(playing(), { t: 'steal', v: 5, d: { victim: 's', legal: { n: north } } }),
    { ...playing(), version: 5, legal: { n: north }, clock: { referee_deadline: null, steal_open: true, move_deadline: 9000 } });

  // An annulment ends the game: nobody to move, nothing legal, no clock.
  const outcome = { result: /** @type {const} */ ('annulled'), reason: 'never-ending' };
  assert.deepEqual(applyEvent(playing(), { t: 'end', v: 5, d: { outcome } }), {
    ...playing(), version: 5, status: 'annulled', outcome, impasse: null, clock: NO_CLOCK,
    pending: null, pending_results: null, pending_move: null, to_move: null, legal: {},
  });
  // The snapshot applied to is left as it was.
  assert.deepEqual(setup.arrangements, { s: null, n: null });
});

test('an undo by a relay: the game as it stands again, the moves after it dropped, the end gone', () => {
  const AFTER_E1 = '4,4,4,4,0,4,4,4/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/4,4,4,4,5,5,5,4 n';
  const start = { ...playing(), you: null, relayed: true, clock: NO_CLOCK };
  const e1 = applyEvent(start, {
    t: 'played', v: 5,
    d: { by: 's', move: 'E1', stolen: false, laps: [], position: AFTER_E1, outcome: null, pending: false, clock: NO_CLOCK, legal: { n: { moves: ['A4'], starts_only: false, starts: [] } } },
  });
  const ended = applyEvent(e1, { t: 'end', v: 6, d: { outcome: { result: 'win', winner: 's', victory: 'resigned' } } });
  assert.equal(ended.status, 'finished');
  const legal = { n: { moves: ['A4'], starts_only: false, starts: [] } };
  const reopened = applyEvent(ended, {
    t: 'undone', v: 7,
    d: { moves: 1, status: 'playing', position: AFTER_E1, to_move: 'n', opening: [], pending: null, pending_results: null, pending_move: null, arrangements: { s: null, n: null }, clock: NO_CLOCK, legal },
  });
  // The end's `impasse: null` stays: it says no proposal stands, which is so.
  assert.deepEqual(reopened, { ...e1, version: 7, outcome: null, legal, arrangements: { s: null, n: null }, impasse: null });
  const back = applyEvent(reopened, {
    t: 'undone', v: 8,
    d: { moves: 0, status: 'playing', position: START, to_move: 's', opening: [], pending: null, pending_results: null, pending_move: null, arrangements: { s: null, n: null }, clock: NO_CLOCK, legal: start.legal },
  });
  assert.deepEqual(back, { ...start, version: 8, legal_moves: [], impasse: null });
  assert.equal(back.history.length, 0);
});
