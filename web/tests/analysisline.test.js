// The analysis board's line (analysis/analysisline.js), without a browser: going back and forward,
// a new move replacing what followed (or keeping the line when it is the move already
// next), a game's moves as a line with its start, budget and akakyala history.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Line, rootNode, captureHistories, startOf, lineOfGame, budgetOf } from '../analysis/analysisline.js';

/** @param {string} move @param {string} position @returns {import('../analysis/analysisline.js').LineNode} */
const node = (move, position) => ({ ...rootNode(position, null), move, by: 's' });

test('the line: back, forward, a new move replaces what followed, the same move keeps it', () => {
  const line = new Line([rootNode('p0', null), node('E1', 'p1'), node('A4', 'p2')], 0);
  assert.equal(line.canBack, false);
  assert.equal(line.canForward, true);
  assert.equal(line.go(5).position, 'p2', 'past the end: the last');
  assert.equal(line.go(0).position, 'p0');
  // The move already next: the line is kept.
  line.play({ ...node('E1', 'p1'), laps: [] });
  assert.equal(line.cursor, 1);
  assert.equal(line.nodes.length, 3);
  assert.deepEqual(line.nodes[1].laps, []);
  // Another move: what followed is gone.
  line.go(0);
  line.play(node('H1', 'q1'));
  assert.deepEqual(line.nodes.map((n) => n.position), ['p0', 'q1']);
  assert.equal(line.current.move, 'H1');
});

const OUTER = '4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s';
const TIME = { referee_seconds: null, move_limit_seconds: 180, sowing_pace: 4, akakyala: true, abandon_seconds: 60, disconnect_grace_seconds: 120 };

test('a game as a line: its start from the preset, its positions, the akakyala history by counting seeds', () => {
  // docs/rules.md#16-worked-example: South's E1 captures North's H3 and H4 (6 seeds): North's total drops.
  const worked = '5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s';
  const afterE1 = '5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n';
  assert.deepEqual(captureHistories('omweso', [worked, afterE1], [null, 's']), [{ s: false, n: false }, { s: true, n: false }]);
  const snap = /** @type {any} */ ({
    ruleset: 'omweso', setup: 'outer', status: 'playing', to_move: 'n', time_control: TIME,
    arrangements: { s: null, n: null },
    history: [{ by: 's', move: 'E1', stolen: false, position: '4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 n' }],
  });
  assert.equal(startOf(snap), OUTER);
  const line = lineOfGame(snap, 1);
  assert.ok(line);
  assert.equal(line.cursor, 1);
  assert.deepEqual(line.nodes.map((n) => n.move), [null, 'E1']);
  assert.deepEqual(line.nodes[1].akakyala, { s: false, n: false }, 'sowing E1 captured nothing');
  assert.equal(budgetOf(snap), 720);
  assert.equal(budgetOf({ ...snap, time_control: { ...TIME, move_limit_seconds: null } }), 20000);
  assert.equal(startOf({ ...snap, status: 'setup' }), null);
  assert.equal(startOf({ ...snap, ruleset: 'mweiso', history: [] }), '2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o');
  assert.equal(startOf({ ...snap, ruleset: 'oware', history: [{ by: 'n', move: 'C2', stolen: false }] }), '4,4,4,4,4,4/4,4,4,4,4,4 n 0 0');
  // A free setup: each side's arrangement in its own pit order (South A1..H1 then H2..A2).
  const free = { ...snap, setup: 'free', arrangements: { s: [8, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 0, 0, 0, 0, 0], n: [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2] } };
  assert.equal(startOf(free), '2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/0,0,0,0,0,8,8,8/8,0,0,0,0,0,0,0 s');
});

test('a finished game: its last position carries the result, and nobody moves there', async () => {
  const { endedView } = await import('../analysis/analysisline.js');
  const won = /** @type {const} */ ({ result: 'win', winner: 's', victory: 'emitwe-ebiri' });
  const last = '4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 n';
  const snap = /** @type {any} */ ({
    ruleset: 'omweso', setup: 'outer', status: 'finished', to_move: null, time_control: TIME, outcome: won,
    arrangements: { s: null, n: null },
    history: [{ by: 's', move: 'E1', stolen: false, position: last }],
  });
  const line = lineOfGame(snap, 1);
  assert.ok(line);
  assert.deepEqual(line.nodes.map((n) => n.over), [null, won], 'only the last position is over');
  // The server, asked about the position alone, lets North move on: the game's end wins.
  const asked = /** @type {any} */ ({ position: last, to_move: 'n', opening: [], legal: { n: { moves: ['A4'], starts_only: false, starts: [] } }, outcome: null });
  assert.deepEqual(endedView(asked, won), { ...asked, outcome: won, legal: {} });
  assert.equal(endedView(asked, null), asked);
  // A game still being played: no position is over.
  const playing = lineOfGame({ ...snap, status: 'playing', outcome: null }, 1);
  assert.deepEqual(playing?.nodes.map((n) => n.over), [null, null]);
});
