// The victories a printed score sheet offers, as the rules name them (docs/rules.md 1.5, 2
// and 3): how a game on a wooden board can end, in each game. A node unit test of
// print/victories.js, no browser.

import test from 'node:test';
import assert from 'node:assert/strict';

import { victoryChoices } from '../print/victories.js';

/** @param {string} ruleset @param {boolean} [akakyala] */
function snap(ruleset, akakyala) {
  return /** @type {any} */ ({ ruleset, settings: { time_control: akakyala === undefined ? {} : { akakyala } } });
}

test('each game\'s victories on its sheet', () => {
  assert.deepEqual(victoryChoices(snap('omweso', true)), [
    ['no-move', 'no move'], ['emitwe-ebiri', 'emitwe-ebiri'], ['akakyala', 'akakyala'],
    ['akawumbi', 'akawumbi'], ['resigned', 'resignation'],
  ]);
  // Without the akakyala rule nobody wins by it: no box for it.
  assert.deepEqual(victoryChoices(snap('omweso', false)).map(([v]) => v), ['no-move', 'emitwe-ebiri', 'akawumbi', 'resigned']);
  assert.deepEqual(victoryChoices(snap('mweiso')).map(([v]) => v), ['no-move', 'emitwe-ebiri', 'resigned']);
  assert.deepEqual(victoryChoices(snap('oware')), [
    ['captures', 'captures (25 or more)'], ['impasse', 'impasse (agreed)'], ['resigned', 'resignation'],
  ]);
});
