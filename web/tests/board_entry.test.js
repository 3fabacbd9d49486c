// The board sheet's pure parts as node unit tests, without a browser (sheet/entryform.js):
// the victories a board game of each ruleset ends by (the server's list), the seeds typed
// checked against what a game has, and an entry in words.

import test from 'node:test';
import assert from 'node:assert/strict';

import { boardVictories, checkSeeds, entryText, seedsInPlay } from '../sheet/entryform.js';

const NAMES = { first: 'Kato', second: 'Nakato' };

test('the victories a game at a board ends by, per ruleset', () => {
  assert.deepEqual(boardVictories('omweso', true), ['no-move', 'emitwe-ebiri', 'akawumbi', 'akakyala', 'resigned']);
  // Akakyala only when the tournament plays it.
  assert.deepEqual(boardVictories('omweso', false), ['no-move', 'emitwe-ebiri', 'akawumbi', 'resigned']);
  assert.deepEqual(boardVictories('mweiso', true), ['no-move', 'emitwe-ebiri', 'resigned']);
  assert.deepEqual(boardVictories('oware', false), ['captures', 'resigned']);
  assert.equal(seedsInPlay('oware'), 48);
  assert.equal(seedsInPlay('omweso'), 64);
});

test('the seeds typed: whole numbers from 0, at most what a game has', () => {
  assert.deepEqual(checkSeeds('40', '24', 'omweso', NAMES), { ok: true, seeds: { first: 40, second: 24 } });
  assert.deepEqual(checkSeeds('0', '64', 'mweiso', NAMES), { ok: true, seeds: { first: 0, second: 64 } });
  assert.deepEqual(checkSeeds('40', '30', 'omweso', NAMES),
    { ok: false, error: '40 and 30 add up to 70, more than the 64 a game has.', which: null });
  assert.deepEqual(checkSeeds('25', '24', 'oware', NAMES),
    { ok: false, error: '25 and 24 add up to 49, more than the 48 a game has.', which: null });
  assert.deepEqual(checkSeeds('', '3', 'oware', NAMES),
    { ok: false, error: 'Enter the pieces taken by Kato (0 if none).', which: 'first' });
  assert.deepEqual(checkSeeds('3', '2.5', 'omweso', NAMES),
    { ok: false, error: 'The seeds captured by Nakato must be a whole number from 0.', which: 'second' });
  assert.deepEqual(checkSeeds('3', '-1', 'omweso', NAMES),
    { ok: false, error: 'The seeds captured by Nakato must be a whole number from 0.', which: 'second' });
});

test('an entry in words: the winner, how ("normal" for no move), the seeds in the pairing\'s order', () => {
  const pairing = { first: 'k', second: 'n' };
  const name = (/** @type {string | null} */ id) => (id === 'k' ? 'Kato' : id === 'n' ? 'Nakato' : '?');
  assert.equal(entryText({ winner: 'n', victory: 'no-move', seeds: { first: 20, second: 40 } }, pairing, name, 'omweso'),
    'Nakato won (normal) · seeds captured: Kato 20, Nakato 40');
  assert.equal(entryText({ winner: null, victory: null, seeds: { first: 24, second: 24 } }, pairing, name, 'oware'),
    'Draw · pieces taken: Kato 24, Nakato 24');
});
