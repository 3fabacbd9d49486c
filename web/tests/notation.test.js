// notation.js against RULES.md's worked examples and against the real engine
// (`omweso engine`): the legal starts the client highlights must be the engine's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  parsePosition, formatPosition, legalStarts, replay, cellOf, pitName, cellOfIndex, indexOfCell,
  describeOutcome, startToken, playTurn,
} from '../notation.js';
import { applyEvent, sideField } from '../game.js';
import { binary } from './helpers/server.js';

const EXAMPLE = '5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s';

test('coordinates: side indices follow RULES.md 0.1', () => {
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

test('the worked example (RULES.md 1.6): legal starts and the laps of E1', () => {
  const pos = parsePosition('omweso', EXAMPLE);
  assert.deepEqual(legalStarts(pos, 's'), ['E1', 'H2', 'E2', 'D2', 'B2', 'A2']);
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

test('Mweiso opening: A1\' captures clockwise', () => {
  const pos = parsePosition('mweiso', '2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o');
  assert.deepEqual(legalStarts(pos, 's'), ['A1', "A1'", 'B1', 'C1', 'F1', 'G1', 'H1']);
  assert.deepEqual(legalStarts(pos, 'n'), ['H4', "H4'", 'G4', 'F4', 'C4', 'B4', 'A4']);
});

test('outcomes in words', () => {
  const name = (/** @type {'s'|'n'} */ side) => (side === 's' ? 'Kato' : 'Nakato');
  const both = describeOutcome({ result: 'win', winner: 'n', victory: 'emitwe-ebiri' }, name);
  assert.equal(both.title, 'Nakato wins');
  assert.match(both.detail, /both ends, columns A and H/);
  assert.match(describeOutcome({ result: 'annulled', reason: 'budget' }, name).detail, /3-minute/);
});

test('events update the snapshot in order', () => {
  /** @type {import('../game.js').Snapshot} */
  const snap = {
    game_id: 'g', ruleset: 'mweiso', setup: 'outer',
    time_control: { referee_seconds: null, move_limit_seconds: 180, sowing_pace: 4, akakyala: false, abandon_seconds: 60, disconnect_grace_seconds: 120 },
    status: 'setup', position: null, to_move: null, opening: [], seats: { s: { name: 'Kato', connected: true }, n: null },
    you: 's', legal_moves: [], pending: null, pending_move: null,
    clock: { referee_deadline: null, steal_open: false, move_deadline: null },
    history: [], outcome: null, spectators: 0, version: 0, arrangements: { s: null, n: null },
  };
  const start = '2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o';
  let s = applyEvent(snap, { t: 'joined', v: 1, d: { seat: 'n', name: 'Nakato' } });
  s = applyEvent(s, { t: 'started', v: 2, d: { to_move: null, position: start, clock: snap.clock } });
  assert.deepEqual(s.opening, ['s', 'n']);
  s = applyEvent(s, { t: 'played', v: 3, d: { by: 's', move: "A1'", stolen: false, laps: [], position: start, outcome: null, pending: true } });
  s = applyEvent(s, { t: 'decision', v: 4, d: { by: 's', options: ['a', 'c', 'l'] } });
  assert.deepEqual(s.pending, ['a', 'c', 'l']);
  assert.equal(s.history.length, 0);
  s = applyEvent(s, { t: 'played', v: 5, d: { by: 's', move: "A1'/a", stolen: false, laps: [], position: start.replace(' o', ' on'), outcome: null, pending: false } });
  assert.equal(s.pending, null);
  assert.deepEqual(s.opening, ['n']);
  assert.equal(s.history[0].move, "A1'/a");
  s = applyEvent(s, { t: 'end', v: 6, d: { outcome: { result: 'win', winner: 'n', victory: 'resigned' } } });
  assert.equal(s.status, 'finished');
  assert.deepEqual(sideField('x s 0 0'), { toMove: 's', opening: [] });
});

/** A line-by-line client of `omweso engine`. */
function engine() {
  const child = spawn(binary(), ['engine'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  /** @type {((line: string) => void)[]} */
  const waiting = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  return {
    /** @param {object} request @returns {Promise<any>} */
    ask(request) {
      return new Promise((resolve, reject) => {
        waiting.push((line) => {
          const answer = JSON.parse(line);
          if (answer.error) reject(new Error(`${answer.error} (for ${JSON.stringify(request)})`));
          else resolve(answer);
        });
        child.stdin.write(`${JSON.stringify(request)}\n`);
      });
    },
    close() {
      child.stdin.end();
    },
  };
}

/** A seeded random number generator (mulberry32), so a failure can be replayed. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STARTS = {
  omweso: ['4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s', '2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 s'],
  mweiso: ['2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o'],
  oware: ['4,4,4,4,4,4/4,4,4,4,4,4 s 0 0'],
};

for (const [ruleset, starts] of Object.entries(STARTS)) {
  test(`legal starts and whole turns match the engine over random ${ruleset} games`, async () => {
    const eng = engine();
    const random = rng(ruleset.length * 7919);
    let checked = 0;
    try {
      let position = starts[0];
      for (let ply = 0; ply < 1000; ply++) {
        const field = position.split(' ')[1];
        const sides = field === 'o' ? ['s', 'n'] : field.startsWith('o') ? [field[1]] : [field];
        const side = sides[Math.floor(random() * sides.length)];
        /** @type {any} */
        const request = { op: 'moves', ruleset, position, max_seeds: 720 };
        if (field === 'o') request.side = side;
        const { moves } = await eng.ask(request);
        const expected = [...new Set(moves.map(startToken))];
        const pos = parsePosition(/** @type {any} */ (ruleset), position);
        assert.deepEqual(legalStarts(pos, /** @type {'s'|'n'} */ (side)), expected, `legal starts of ${side} in ${ruleset} ${position}`);
        checked += 1;
        if (!moves.length) {
          position = starts[Math.floor(random() * starts.length)];
          continue;
        }
        const move = moves[Math.floor(random() * moves.length)];
        /** @type {any} */
        const play = { op: 'play', ruleset, position, move, max_seeds: 720 };
        if (field === 'o') play.side = side;
        const result = await eng.ask(play);
        // The client's own turn loop (the pointer's preview) gives the engine's result.
        const mine = playTurn(pos, /** @type {'s'|'n'} */ (side), move, 720);
        const sweep = ruleset === 'oware' && result.outcome;
        if (!sweep) {
          assert.equal(formatPosition({ ...mine.position, toMove: 'x' }), formatPosition({ ...parsePosition(/** @type {any} */ (ruleset), result.position), toMove: 'x' }), `${move} from ${position}`);
        }
        assert.deepEqual(mine.outcome, result.outcome && !sweep ? result.outcome : (sweep ? mine.outcome : null), `the outcome of ${move} from ${position}`);
        assert.equal(mine.captured, result.captured, `captures of ${move} from ${position}`);
        position = result.outcome ? starts[Math.floor(random() * starts.length)] : result.position;
      }
    } finally {
      eng.close();
    }
    assert.ok(checked >= 1000, `${checked} positions checked`);
  });
}
