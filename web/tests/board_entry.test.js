// The board sheet's pure parts as node unit tests, without a browser (sheet/entryform.js):
// the victories a board game of each ruleset ends by (the server's list), the seeds typed
// checked against what a game has, and an entry in words.

import test from 'node:test';
import assert from 'node:assert/strict';

import { boardVictories, checkSeeds, checkSeedsOnBoard, drawChoice, entryText, initialsText, onBoard, seedsInPlay } from '../sheet/entryform.js';

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

test('the draw a form offers: Oware\'s; in Omweso and Mweiso only the director\'s adjudication', () => {
  // Omweso and Mweiso have no draws in play (docs/rules.md 1.5): no "Draw" on a player's phone.
  assert.equal(drawChoice('omweso', false), null);
  assert.equal(drawChoice('mweiso', false), null);
  assert.deepEqual(drawChoice('omweso', true), { label: 'Draw (adjudicated)', victories: ['adjudicated'] });
  assert.deepEqual(drawChoice('mweiso', true), { label: 'Draw (adjudicated)', victories: ['adjudicated'] });
  // Oware is drawn 24-24; the director may also adjudicate one.
  assert.deepEqual(drawChoice('oware', false), { label: 'Draw', victories: [] });
  assert.deepEqual(drawChoice('oware', true), { label: 'Draw', victories: ['', 'adjudicated'] });
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

test('an entry in words: the winner, how ("no move", as the sheets and the rules name it), the seeds in the pairing\'s order', () => {
  const pairing = { first: 'k', second: 'n' };
  const name = (/** @type {string | null} */ id) => (id === 'k' ? 'Kato' : id === 'n' ? 'Nakato' : '?');
  assert.equal(entryText({ winner: 'n', victory: 'no-move', seeds: { first: 20, second: 40 } }, pairing, name, 'omweso'),
    'Nakato won (no move) · seeds captured: Kato 20, Nakato 40');
  assert.equal(entryText({ winner: null, victory: null, seeds: { first: 24, second: 24 } }, pairing, name, 'oware'),
    'Draw · pieces taken: Kato 24, Nakato 24');
});

test('who initialled an entry: a director\'s hand for a player without a device is said', () => {
  const name = (/** @type {string | null} */ id) => (id === 'k' ? 'Kato' : id === 'o' ? 'Okello' : '?');
  assert.equal(initialsText({ confirmed_by: ['k'] }, name), 'Kato');
  const both = { confirmed_by: ['k', 'o'], confirmed_for: [{ player: 'o', by: 'td', by_name: 'Sarah' }] };
  assert.equal(initialsText(both, name), 'Kato and the director Sarah for Okello');
  // The author left out: who initialled their entry.
  assert.equal(initialsText(both, name, 'k'), 'the director Sarah for Okello');
});

test('an adjudication of Omweso or Mweiso is on the seeds on each side: 64 together, more wins, equal is a draw', () => {
  assert.equal(onBoard('omweso', 'adjudicated'), true);
  assert.equal(onBoard('mweiso', 'adjudicated'), true);
  // Oware is adjudicated on the pieces taken; a game played out on the seeds captured.
  assert.equal(onBoard('oware', 'adjudicated'), false);
  assert.equal(onBoard('omweso', 'no-move'), false);
  assert.deepEqual(checkSeedsOnBoard('24', '40', 'omweso', NAMES, 'second'), { ok: true, seeds: { first: 24, second: 40 } });
  assert.deepEqual(checkSeedsOnBoard('32', '32', 'mweiso', NAMES, null), { ok: true, seeds: { first: 32, second: 32 } });
  assert.deepEqual(checkSeedsOnBoard('10', '50', 'omweso', NAMES, 'second'),
    { ok: false, error: '10 and 50 add up to 60: a board holds 64 seeds. Count them again.', which: null });
  assert.deepEqual(checkSeedsOnBoard('40', '24', 'omweso', NAMES, 'second'),
    { ok: false, error: 'Kato has more seeds on their side (40 to 24): the side with more wins.', which: null });
  assert.deepEqual(checkSeedsOnBoard('40', '24', 'omweso', NAMES, null),
    { ok: false, error: 'A draw is equal seeds on each side, not 40 to 24.', which: null });
  assert.deepEqual(checkSeedsOnBoard('32', '32', 'omweso', NAMES, 'first'),
    { ok: false, error: 'Equal seeds on each side (32 each) are a draw.', which: null });
  assert.deepEqual(checkSeedsOnBoard('', '32', 'omweso', NAMES, null),
    { ok: false, error: 'Enter the seeds on Kato\'s side (0 if none).', which: 'first' });
  // Said in words as what it is.
  const pairing = { first: 'k', second: 'n' };
  const name = (/** @type {string | null} */ id) => (id === 'k' ? 'Kato' : id === 'n' ? 'Nakato' : '?');
  assert.equal(entryText({ winner: 'n', victory: 'adjudicated', seeds: { first: 0, second: 0 }, seeds_on_board: { first: 24, second: 40 } }, pairing, name, 'omweso'),
    'Nakato won (adjudication) · seeds on each side: Kato 24, Nakato 40');
  assert.equal(entryText({ winner: null, victory: 'adjudicated', seeds: { first: 0, second: 0 }, seeds_on_board: { first: 32, second: 32 } }, pairing, name, 'omweso'),
    'Draw (adjudication) · seeds on each side: Kato 32, Nakato 32');
});
