// The analysis board's line (analysis/analysisline.js), without a browser: going back and forward,
// a new move replacing what followed (or keeping the line when it is the move already
// next), a game file's game (as the server reads it) as a line with its start, budget
// and akakyala history.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Line, rootNode, captureHistories } from '../analysis/analysisline.js';
import { lineOfReport, budgetOfRecord, titleOf } from '../analysis/gamefile.js';

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
const AFTER_E1 = '4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 n';

/**
 * A read game (`POST /api/analysis/read-game`).
 * @param {Partial<import('../analysis/gamefile.js').GameRecord>} record @param {any} [outcome]
 * @returns {import('../analysis/gamefile.js').GameReport}
 */
function report(record, outcome = null) {
  return {
    record: { tags: [{ name: 'South', value: 'Ann' }, { name: 'North', value: 'Ben' }], ruleset: 'omweso', moves: [{ side: 's', move: 'E1' }], result: '*', ...record },
    start: OUTER, positions: [AFTER_E1], end: AFTER_E1, outcome,
  };
}

test('a read game as a line: its start, its positions, the akakyala history by counting seeds', () => {
  // docs/rules.md#16-worked-example: South's E1 captures North's H3 and H4 (6 seeds): North's total drops.
  const worked = '5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s';
  const afterE1 = '5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n';
  assert.deepEqual(captureHistories('omweso', [worked, afterE1], [null, 's']), [{ s: false, n: false }, { s: true, n: false }]);
  const line = lineOfReport(report({ akakyala: true }), 1);
  assert.ok(line);
  assert.equal(line.cursor, 1);
  assert.deepEqual(line.nodes.map((n) => n.position), [OUTER, AFTER_E1]);
  assert.deepEqual(line.nodes.map((n) => n.move), [null, 'E1']);
  assert.deepEqual(line.nodes[1].akakyala, { s: false, n: false }, 'sowing E1 captured nothing');
  assert.equal(lineOfReport(report({}), 1)?.nodes[1].akakyala, null, 'akakyala off: no history');
  // No ply: the last position.
  assert.equal(lineOfReport(report({}), Number.NaN)?.cursor, 1);
  // A stolen move is marked, and a game whose moves do not replay makes no line.
  const stolen = lineOfReport(report({ moves: [{ side: 's', move: 'E1', stolen: true }] }), 0);
  assert.equal(stolen?.nodes[1].stolen, true);
  assert.equal(lineOfReport({ record: report({}).record, error: 'move 1: E1: ...' }, 0), null);
  assert.equal(titleOf(report({}).record), 'Omweso: Ann vs Ben, *');
});

test('the budget a file’s game was played under, from its TimeControl tag', () => {
  const tc = (/** @type {string} */ value) => report({ tags: [{ name: 'TimeControl', value }] }).record;
  assert.equal(budgetOfRecord(tc('referee=3 limit=180 pace=4 arrange=120')), 720);
  assert.equal(budgetOfRecord(tc('limit=0.5 pace=4')), 2);
  assert.equal(budgetOfRecord(tc('-')), 20000, 'no limit: the server\'s cap');
  assert.equal(budgetOfRecord(tc('limit=86400 pace=4')), 20000);
  assert.equal(budgetOfRecord(report({}).record), null, 'no tag: the server\'s own');
});

test('a finished game: its last position carries the result, and nobody moves there', async () => {
  const { endedView } = await import('../analysis/analysisline.js');
  const won = /** @type {const} */ ({ result: 'win', winner: 's', victory: 'emitwe-ebiri' });
  const line = lineOfReport(report({ result: '1-0', termination: 'emitwe-ebiri' }, won), 1);
  assert.ok(line);
  assert.deepEqual(line.nodes.map((n) => n.over), [null, won], 'only the last position is over');
  // The server, asked about the position alone, lets North move on: the game's end wins.
  const asked = /** @type {any} */ ({ position: AFTER_E1, to_move: 'n', opening: [], legal: { n: { moves: ['A4'], starts_only: false, starts: [] } }, outcome: null });
  assert.deepEqual(endedView(asked, won), { ...asked, outcome: won, legal: {} });
  assert.equal(endedView(asked, null), asked);
  // A game still being played: no position is over.
  const playing = lineOfReport(report({}), 1);
  assert.deepEqual(playing?.nodes.map((n) => n.over), [null, null]);
});
