// board/notation.js against docs/rules.md's worked examples, the model's events (game/model.js), and the
// words the page says about turns. No rules here: what is legal comes from the server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parsePosition, formatPosition, replay, cellOf, pitName, cellOfIndex, indexOfCell,
  describeOutcome, summarizeLaps,
} from '../board/notation.js';
import { applyEvent, sideField } from '../game/model.js';
import { myStarts, myTurn } from '../game/viewer.js';
import { describeStart } from '../game/hoverline.js';

const EXAMPLE = '5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s';

test('coordinates: side indices follow docs/rules.md#01-the-4x8-board-omweso-mweiso', () => {
  const name = (/** @type {'s'|'n'} */ side, /** @type {number} */ i) => pitName('omweso', cellOfIndex('omweso', side, i));
  assert.deepEqual([0, 7, 8, 15].map((i) => name('s', i)), ['A1', 'H1', 'H2', 'A2']);
  assert.deepEqual([0, 7, 8, 15].map((i) => name('n', i)), ['H4', 'A4', 'A3', 'H3']);
  assert.deepEqual([0, 5, 6, 11].map((i) => pitName('oware', cellOfIndex('oware', 's', i))), ['A1', 'F1', 'F2', 'A2']);
  for (let cell = 0; cell < 32; cell++) {
    const side = cell < 16 ? 's' : 'n';
    assert.equal(cellOfIndex('omweso', side, indexOfCell('omweso', cell)), cell);
  }
  assert.equal(cellOf('omweso', "A1'"), cellOf('omweso', 'A1'));
  assert.equal(cellOf('oware', 'G1'), -1);
});

test('positions round-trip', () => {
  assert.equal(formatPosition(parsePosition('omweso', EXAMPLE)), EXAMPLE);
  const oware = '1,0,0,0,1,2/0,0,0,0,3,1 s 21 19';
  assert.equal(formatPosition(parsePosition('oware', oware)), oware);
});

test('the worked example (docs/rules.md#16-worked-example): the laps of E1', () => {
  const pos = parsePosition('omweso', EXAMPLE);
  const after = replay(pos, [
    { from: 'E1', dir: 'a', seeds: 4, to: 'H2', kind: 'capture', captured: 6 },
    { from: 'E1', dir: 'a', seeds: 6, to: 'F2', kind: 'end', captured: 0 },
  ]);
  assert.equal(formatPosition({ ...after, toMove: 'n' }), '5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n');
});

test('Oware: a capture walks back and goes to the store', () => {
  const pos = parsePosition('oware', '1,0,0,0,1,2/0,0,0,0,3,1 s 21 19');
  const after = replay(pos, [{ from: 'E1', dir: 'a', seeds: 3, to: 'E2', kind: 'capture', captured: 5 }]);
  assert.equal(formatPosition({ ...after, toMove: 'n' }), '1,0,0,0,0,0/0,0,0,0,0,2 n 26 19');
});

test('outcomes in words', () => {
  const name = (/** @type {'s'|'n'} */ side) => (side === 's' ? 'Kato' : 'Nakato');
  const both = describeOutcome({ result: 'win', winner: 'n', victory: 'emitwe-ebiri' }, name);
  assert.equal(both.title, 'Nakato wins');
  assert.match(both.detail, /both ends, columns A and H/);
  assert.match(describeOutcome({ result: 'annulled', reason: 'budget' }, name).detail, /3-minute/);
});

test('events update the snapshot in order', () => {
  /** @type {import('../game/model.js').Snapshot} */
  const snap = {
    game_id: 'g', ruleset: 'mweiso', setup: 'outer',
    time_control: { referee_seconds: null, move_limit_seconds: 180, sowing_pace: 4, akakyala: false, abandon_seconds: 60, disconnect_grace_seconds: 120 },
    status: 'setup', position: null, to_move: null, opening: [], seats: { s: { name: 'Kato', connected: true }, n: null },
    you: 's', legal_moves: [], pending: null, pending_move: null, legal: {}, pending_results: null,
    clock: { referee_deadline: null, steal_open: false, move_deadline: null },
    history: [], outcome: null, spectators: 0, version: 0, arrangements: { s: null, n: null },
  };
  const start = '2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o';
  let s = applyEvent(snap, { t: 'joined', v: 1, d: { seat: 'n', name: 'Nakato' } });
  s = applyEvent(s, { t: 'started', v: 2, d: { to_move: null, position: start, clock: snap.clock, legal: {} } });
  assert.deepEqual(s.opening, ['s', 'n']);
  s = applyEvent(s, { t: 'played', v: 3, d: { by: 's', move: "A1'", stolen: false, laps: [], position: start, outcome: null, pending: true, legal: {} } });
  s = applyEvent(s, { t: 'decision', v: 4, d: { by: 's', options: ['a', 'c', 'l'], results: [] } });
  assert.deepEqual(s.pending, ['a', 'c', 'l']);
  assert.equal(s.history.length, 0);
  s = applyEvent(s, { t: 'played', v: 5, d: { by: 's', move: "A1'/a", stolen: false, laps: [], position: start.replace(' o', ' on'), outcome: null, pending: false, legal: {} } });
  assert.equal(s.pending, null);
  assert.deepEqual(s.opening, ['n']);
  assert.equal(s.history[0].move, "A1'/a");
  s = applyEvent(s, { t: 'end', v: 6, d: { outcome: { result: 'win', winner: 'n', victory: 'resigned' } } });
  assert.equal(s.status, 'finished');
  assert.deepEqual(sideField('x s 0 0'), { toMove: 's', opening: [] });
});

/** A start's result as the server sends it. @param {string} start @param {object} [more] */
function startResult(start, more = {}) {
  return { start, laps: 1, seeds: 2, captured: 0, ends_at: null, decision: null, outcome: null, ...more };
}

test('legal moves and decision results travel with the events', () => {
  /** @type {import('../game/model.js').Snapshot} */
  const snap = {
    game_id: 'g', ruleset: 'omweso', setup: 'even',
    time_control: { referee_seconds: 20, move_limit_seconds: 180, sowing_pace: 4, akakyala: false, abandon_seconds: 60, disconnect_grace_seconds: 120 },
    status: 'setup', position: null, to_move: null, opening: [], seats: { s: { name: 'Kato', connected: true }, n: { name: 'Nakato', connected: true } },
    you: 'n', legal_moves: [], pending: null, pending_move: null, legal: {}, pending_results: null,
    clock: { referee_deadline: null, steal_open: false, move_deadline: null },
    history: [], outcome: null, spectators: 0, version: 1, arrangements: { s: null, n: null },
  };
  const even = '2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 s';
  const south = { moves: ['A1', 'B1'], starts_only: false, starts: [startResult('A1'), startResult('B1')] };
  let s = applyEvent(snap, { t: 'started', v: 2, d: { to_move: 's', position: even, clock: snap.clock, legal: { s: south } } });
  assert.deepEqual(s.legal, { s: south });
  assert.deepEqual(myStarts(s), [], 'North may not start: the legal moves are South\'s');
  assert.equal(myTurn({ ...s, you: 's' }), true);
  assert.deepEqual(myStarts({ ...s, you: 's' }), ['A1', 'B1']);

  // The steal: the victim's moves and the thief's.
  const north = { moves: ['H4', "H4'/c"], starts_only: true, starts: [startResult('H4'), startResult("H4'", { decision: ['a', 'c'] })] };
  s = applyEvent(s, { t: 'steal', v: 3, d: { victim: 's', legal: { s: south, n: north } } });
  assert.equal(s.clock.steal_open, true);
  assert.deepEqual(myStarts(s), ['H4', "H4'"]);

  // A turn that stops at a decision: nobody may start; the results come with the decision.
  s = applyEvent(s, { t: 'played', v: 4, d: { by: 'n', move: "H4'", stolen: true, laps: [], position: even.replace(' s', ' n'), outcome: null, pending: true, legal: {} } });
  assert.deepEqual(s.legal, {});
  assert.deepEqual(myStarts(s), []);
  /** @type {import('../game/model.js').OptionResult[]} */
  const results = [
    { choice: 'a', laps: [], position: even, decision: null, outcome: null },
    { choice: 'c', laps: [], laps_omitted: { laps: 90, seeds: 700, captured: 40 }, position: even, decision: null, outcome: { result: 'annulled', reason: 'budget' } },
  ];
  s = applyEvent(s, { t: 'decision', v: 5, d: { by: 'n', options: ['a', 'c'], results } });
  assert.deepEqual(s.pending, ['a', 'c']);
  assert.deepEqual(s.pending_results, results);

  // The answer ends the turn: South's moves come with it, the results are gone.
  s = applyEvent(s, { t: 'played', v: 6, d: { by: 'n', move: "H4'/a", stolen: true, laps: [], position: even, outcome: null, pending: false, legal: { s: south } } });
  assert.equal(s.pending_results, null);
  assert.deepEqual(s.legal, { s: south });
  assert.equal(s.history.length, 1);

  // The end empties them.
  s = applyEvent(s, { t: 'end', v: 7, d: { outcome: { result: 'win', winner: 's', victory: 'resigned' } } });
  assert.deepEqual(s.legal, {});
  assert.deepEqual(myStarts({ ...s, you: 's' }), []);
});

test('a start and a turn in words', () => {
  assert.equal(describeStart(startResult('E1', { laps: 3, seeds: 14, captured: 6, ends_at: 'H2' })),
    'E1: 14 seeds sown in 3 laps, captured 6, ended at H2.');
  assert.equal(describeStart(startResult("A1'", { laps: 1, seeds: 2, captured: 4, decision: ['a', 'c'] })),
    'A1 clockwise: 2 seeds sown in 1 lap, captured 4, then a choice (a, c).');
  assert.match(describeStart(startResult('C1', { outcome: { result: 'win', winner: 's', victory: 'emitwe-ebiri' } })), /wins the game \(emitwe-ebiri\)\.$/);
  assert.match(describeStart(startResult('C1', { outcome: { result: 'annulled', reason: 'never-ending' } })), /would be annulled\.$/);
  const laps = /** @type {import('../board/notation.js').Lap[]} */ ([
    { from: 'E1', dir: 'a', seeds: 4, to: 'H2', kind: 'capture', captured: 6 },
    { from: 'E1', dir: 'a', seeds: 6, to: 'F2', kind: 'end', captured: 0 },
  ]);
  assert.equal(summarizeLaps(laps), '10 seeds sown in 2 laps, captured 6, ended at F2');
  // Past the lap limit the rest is counted, and where it ended is not known.
  assert.equal(summarizeLaps(laps, { laps: 100, seeds: 900, captured: 30 }), '910 seeds sown in 102 laps, captured 36');
});
