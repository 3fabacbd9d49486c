// The pacing of a turn's animation against its display time (board/playback.js), without a
// browser: the server's count for the next player starts when the display time is over,
// so every page must have finished showing the turn by then, whatever its own pace.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayLeft, fitPace, longestStep } from '../board/playback.js';

/** @param {number} seeds @param {'capture'|'relay'|'end'} kind */
const lap = (seeds, kind) => ({ from: 'E1', dir: /** @type {'a'} */ ('a'), seeds, to: 'H2', kind, captured: kind === 'capture' ? 6 : 0 });

test('the display time left runs from the moment the turn was received', () => {
  assert.equal(displayLeft(690, 1000, 1000), 690);
  assert.equal(displayLeft(690, 1000, 1500), 190);
  // Shown late (the page was behind): nothing left, the turn is drawn at once.
  assert.equal(displayLeft(690, 1000, 2000), 0);
});

test('a short turn keeps the player\'s own pace when it fits', () => {
  // One lap of 4 seeds, shown for 1000 ms (950 kept): 5 steps of 120 ms and one step for
  // the cut, 720 ms.
  assert.equal(fitPace(120, [lap(4, 'end')], 1000), 120);
  // In 690 ms (655 kept) it does not fit: 102 ms a seed, 6 * 102 = 612 ms.
  assert.equal(fitPace(120, [lap(4, 'end')], 690), 102);
  // The slow pace (260 ms a seed) is made faster a step at a time, 260, 221, 187, 158,
  // 134, 113 (6 * 113 = 678 ms, too long), 96 (576 ms: fits).
  assert.equal(fitPace(260, [lap(4, 'end')], 690), 96);
});

test('a long turn is played faster to fit, and a capture\'s flight is counted', () => {
  // 14 laps, 74 seeds, two captures, in the 4 s bound (3.8 s kept): 88 steps, two flights
  // of 220 + 55 ms and one more for the cut. At 37 ms a seed that is 3,256 + 550 + 275 =
  // 4,081 ms, too long; at 31, the next step, 2,728 + 550 + 275 = 3,553 ms.
  const laps = [lap(10, 'capture'), ...Array.from({ length: 12 }, () => lap(5, 'relay')), lap(4, 'end')];
  laps[5] = lap(5, 'capture');
  assert.equal(laps.reduce((n, l) => n + l.seeds, 0), 74);
  assert.equal(fitPace(120, laps, 4000), 31);
});

test('no time left, or not even the fastest readable pace fits: shown at once', () => {
  assert.equal(fitPace(120, [lap(4, 'end')], 0), 0);
  // 300 seeds at 8 ms a seed is 2.4 s: more than 1 s.
  assert.equal(fitPace(120, [lap(300, 'end')], 1000), 0);
});

test('the cut comes one step early: a seed, or a capture\'s flight and take-off', () => {
  assert.equal(longestStep(120, [lap(4, 'end')]), 120);
  // At 120 ms a seed a flight takes 480 ms and 120 ms to take off.
  assert.equal(longestStep(120, [lap(4, 'relay'), lap(6, 'capture')]), 600);
  // Fast: the flight's floor, 220 ms, and 55 ms.
  assert.equal(longestStep(20, [lap(6, 'capture')]), 275);
});
