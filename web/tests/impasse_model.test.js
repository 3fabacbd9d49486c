// Oware's impasse in the page's model, as node unit tests: the split the offer shows
// (game/impasse.js), the reducer following a proposal (game/model.js), the result's words.

import test from 'node:test';
import assert from 'node:assert/strict';

import { applyEvent } from '../game/model.js';
import { impasseSplit } from '../game/impasse.js';
import { describeOutcome } from '../board/notation.js';

test('the split: evenly, the odd seed to the side with more on it', () => {
  // 7 left: South C1 3, North F2 1 and A2 3; North keeps the odd one, 23-25.
  assert.deepEqual(impasseSplit('3,0,0,0,0,1/0,0,3,0,0,0 s 20 21'),
    { left: 7, split: { s: 3, n: 4 }, after: { s: 23, n: 25 } });
  // 6 left on unequal sides (South 1, North 5): 3 each.
  assert.deepEqual(impasseSplit('0,5,0,0,0,0/0,0,0,0,1,0 s 20 22'),
    { left: 6, split: { s: 3, n: 3 }, after: { s: 23, n: 25 } });
  // Equal sides.
  assert.deepEqual(impasseSplit('0,0,0,2,0,0/0,0,2,0,0,0 s 22 22'),
    { left: 4, split: { s: 2, n: 2 }, after: { s: 24, n: 24 } });
  assert.equal(impasseSplit('not a position'), null);
});

test('a proposal stands, is declined, lapses with the proposer\'s turn, and ends the game', () => {
  /** @type {import('../game/model.js').Snapshot} */
  const snap = {
    game_id: 'g', ruleset: 'oware', setup: 'outer',
    time_control: { referee_seconds: null, move_limit_seconds: 180, sowing_pace: 4, akakyala: false, abandon_seconds: 60, disconnect_grace_seconds: 120 },
    status: 'playing', position: '3,0,0,0,0,1/0,0,3,0,0,0 s 20 21', to_move: 's', opening: [],
    seats: { s: { name: 'Kato', connected: true }, n: { name: 'Nakato', connected: true } },
    you: 'n', legal_moves: [], legal: {}, pending: null, pending_results: null, pending_move: null,
    clock: { referee_deadline: null, steal_open: false, move_deadline: null },
    history: [], outcome: null, spectators: 0, version: 10, arrangements: { s: null, n: null },
  };
  let s = applyEvent(snap, { t: 'impasse_proposed', v: 11, d: { by: 'n' } });
  assert.deepEqual(s.impasse, { proposed_by: 'n' });
  // The opponent's turn leaves it standing; the proposer's ends it.
  const played = (/** @type {'s'|'n'} */ by, /** @type {number} */ v) => ({
    t: /** @type {'played'} */ ('played'), v,
    d: { by, move: 'C1', stolen: false, laps: [], position: snap.position || '', outcome: null, pending: false, legal: {} },
  });
  s = applyEvent(s, played('s', 12));
  assert.deepEqual(s.impasse, { proposed_by: 'n' });
  s = applyEvent(s, played('n', 13));
  assert.equal(s.impasse, null);
  s = applyEvent(s, { t: 'impasse_proposed', v: 14, d: { by: 's' } });
  s = applyEvent(s, { t: 'impasse_declined', v: 15, d: { by: 'n' } });
  assert.equal(s.impasse, null);
  s = applyEvent(s, { t: 'impasse_proposed', v: 16, d: { by: 's' } });
  s = applyEvent(s, {
    t: 'end', v: 17,
    d: {
      outcome: { result: 'win', winner: 'n', victory: 'impasse' },
      impasse: { proposed_by: 's', split: { s: 3, n: 4 } },
      position: '0,0,0,0,0,0/0,0,0,0,0,0 s 23 25',
    },
  });
  assert.equal(s.status, 'finished');
  assert.deepEqual(s.impasse, { proposed_by: 's', split: { s: 3, n: 4 } });
  assert.equal(s.position, '0,0,0,0,0,0/0,0,0,0,0,0 s 23 25');
  // Any other end leaves no proposal standing.
  s = applyEvent(applyEvent(snap, { t: 'impasse_proposed', v: 11, d: { by: 'n' } }),
    { t: 'end', v: 12, d: { outcome: { result: 'win', winner: 's', victory: 'resigned' } } });
  assert.equal(s.impasse, null);
  assert.equal(s.position, snap.position);
});

test('a win at an impasse is said so', () => {
  const name = (/** @type {'s'|'n'} */ side) => (side === 's' ? 'Kato' : 'Nakato');
  assert.deepEqual(describeOutcome({ result: 'win', winner: 'n', victory: 'impasse' }, name, 'oware', '0,0,0,0,0,0/0,0,0,0,0,0 s 23 25'), {
    title: 'Nakato wins',
    detail: 'Agreement at an impasse: the players agreed to stop, neither able to capture again; the seeds left were split evenly and the captures decided.',
  });
});
