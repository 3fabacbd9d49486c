// The site's words for counts, points and results, as node unit tests of the pure
// helpers (core/plural.js, core/words.js, board/notation.js): no browser needed.

import test from 'node:test';
import assert from 'node:assert/strict';

import { plural, pointsPhrase } from '../core/plural.js';
import { pointsText, victoryLabel, VICTORY_NAMES } from '../core/words.js';
import { describeOutcome } from '../board/notation.js';

const name = (/** @type {'s'|'n'} */ side) => (side === 's' ? 'Kato' : 'Nakato');

test('counts read "1 move", "2 moves", "0 turns"', () => {
  assert.equal(plural(1, 'move'), '1 move');
  assert.equal(plural(2, 'move'), '2 moves');
  assert.equal(plural(0, 'turn'), '0 turns');
  assert.equal(plural(1, 'round was', 'rounds were'), '1 round was');
  assert.equal(plural(3, 'round was', 'rounds were'), '3 rounds were');
});

test('points read "½ point", "1 point", "1½ points", "0 points"', () => {
  assert.equal(pointsText(0.5), '½ point');
  assert.equal(pointsText(1), '1 point');
  assert.equal(pointsText(1.5), '1½ points');
  assert.equal(pointsText(0), '0 points');
  assert.equal(pointsText(2.25), '2.25 points');
  assert.equal(pointsPhrase(6, '6'), '6 points');
});

test('a victory is named once: no "Emitwe ebiri — emitwe-ebiri"', () => {
  const won = describeOutcome({ result: 'win', winner: 'n', victory: 'emitwe-ebiri' }, name, 'omweso');
  assert.equal(won.title, 'Nakato wins');
  assert.equal(won.detail, 'Emitwe-ebiri: captured at both ends, columns A and H, in one turn.');
  assert.equal(describeOutcome({ result: 'win', winner: 's', victory: 'no-move' }, name, 'omweso').detail,
    'No move: Nakato has no pit with two seeds left.');
  // Said of the loser by name: on the loser's own page "the opponent resigned" read as if
  // the winner had.
  assert.equal(describeOutcome({ result: 'win', winner: 's', victory: 'resigned' }, name, 'oware').detail,
    'Resignation: Nakato resigned.');
  assert.equal(describeOutcome({ result: 'win', winner: 'n', victory: 'abandoned' }, name, 'omweso').detail,
    'Abandonment: Kato abandoned the game (did not move, or stayed away).');
  assert.equal(describeOutcome({ result: 'win', winner: 'n', victory: 'akakyala' }, name, 'omweso').detail,
    'Akakyala: captured twice before Kato captured at all.');
  assert.equal(describeOutcome({ result: 'win', winner: 's', victory: 'no-move' }, name, 'oware').detail,
    'No move: Nakato cannot move.');
  assert.equal(victoryLabel('akawumbi'), 'akawumbi (captured in all eight columns in one turn)');
  assert.equal(victoryLabel('budget'), 'a turn over the move limit');
  assert.equal(VICTORY_NAMES['emitwe-ebiri'], 'emitwe-ebiri');
});

test('a draw is explained by what it was decided on, true when nothing was captured', () => {
  const draw = /** @type {const} */ ({ result: 'draw' });
  // Omweso, adjudicated after one move: 32 seeds on each side, nothing captured.
  const omweso = describeOutcome(draw, name, 'omweso', '4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s');
  assert.equal(omweso.title, 'A draw');
  assert.equal(omweso.detail, 'The round ended before the game was finished, with 32 seeds on each side of the board.');
  assert.doesNotMatch(omweso.detail, /captured/);
  assert.equal(describeOutcome(draw, name, 'mweiso').detail,
    'The round ended before the game was finished, with the same number of seeds on each side of the board.');
  // Oware stopped before any capture; and a game ended 24-24.
  assert.equal(describeOutcome(draw, name, 'oware', '4,4,4,4,4,4/4,4,4,4,4,4 s 0 0').detail,
    'Neither player captured a seed before the round ended: the captures were level, 0 each.');
  assert.equal(describeOutcome(draw, name, 'oware', '0,0,0,0,0,0/0,0,0,0,0,0 s 24 24').detail,
    'Each player captured 24 seeds.');
  assert.equal(describeOutcome(draw, name, 'oware').detail, 'Both players captured the same number of seeds.');
});

test('an adjudicated win says what it was decided on', () => {
  const adjudicated = /** @type {const} */ ({ result: 'win', winner: 's', victory: 'adjudicated' });
  assert.equal(describeOutcome(adjudicated, name, 'omweso').detail,
    'Adjudication: the tournament round ended before the game was finished, and it was decided on the seeds on each side of the board.');
  assert.equal(describeOutcome(adjudicated, name, 'oware').detail,
    'Adjudication: the tournament round ended before the game was finished, and it was decided on the seeds captured.');
});
