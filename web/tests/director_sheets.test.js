// The director's console's pure parts as node unit tests, without a browser: a score sheet's
// result in words (director/sheets.js resultText, also said aloud after a correction), the
// sheet read back as the correction form's choices (director/correction.js currentOutcome),
// and the key that tells whether a pairing was edited (director/pairing.js pairingKey).

import test from 'node:test';
import assert from 'node:assert/strict';

import { resultText } from '../director/sheets.js';
import { currentOutcome, drawCorrection } from '../director/correction.js';
import { pairingKey } from '../director/pairing.js';

/** @typedef {import('../tournament/tournamentstore.js').PairingView} PairingView */
/** @typedef {import('../tournament/tournamentstore.js').SheetView} SheetView */

const NAMES = /** @type {Record<string, string>} */ ({ kato: 'Kato', nakato: 'Nakato' });
/** @param {string | null} id */
const name = (id) => NAMES[id || ''] || 'nobody';

/** @type {PairingView} */
const TABLE = { table: 1, first: 'kato', second: 'nakato', game_id: 'g1', sheet: null, replaced: [] };
/** @type {PairingView} */
const BYE = { table: 2, first: 'kato', second: null, game_id: null, sheet: null, replaced: [] };

/** @param {Partial<SheetView>} over @returns {SheetView} */
function sheet(over) {
  return {
    status: 'pending', first_result: 'won', second_result: 'lost', victory: 'no-move',
    seeds: { first: 40, second: 24 }, turns: 31, duration_ms: 600000, points: { first: 1, second: 0 },
    corrections: [], game_id: 'g1', moved_first: 'kato', confirmed_by: [], dispute: null, confirms_at: null, ...over,
  };
}

test('a sheet\'s result in words: the winner, how, and the points', () => {
  assert.equal(resultText(TABLE, sheet({}), name), 'Kato won (no move) · 1–0');
  assert.equal(resultText(TABLE, sheet({ first_result: 'lost', second_result: 'won', victory: 'emitwe-ebiri', points: { first: 0, second: 2 } }), name),
    'Nakato won (emitwe-ebiri) · 0–2');
  // The result says the victory already ("won by forfeit"): it is not said twice.
  assert.equal(resultText(TABLE, sheet({ first_result: 'forfeit-lost', second_result: 'forfeit-won', victory: 'forfeit', points: { first: 0, second: 1 } }), name),
    'Nakato won by forfeit · 0–1');
  assert.equal(resultText(TABLE, sheet({ first_result: 'adjudicated-drawn', second_result: 'adjudicated-drawn', victory: 'adjudicated', points: { first: 0.5, second: 0.5 } }), name),
    'draw on adjudication · ½–½');
  assert.equal(resultText(TABLE, sheet({ first_result: 'drawn', second_result: 'drawn', victory: null, points: { first: 0.5, second: 0.5 } }), name),
    'draw · ½–½');
  assert.equal(resultText(TABLE, sheet({ first_result: 'annulled', second_result: 'annulled', victory: 'budget' }), name, false),
    'annulled (a turn over the move limit)');
  assert.equal(resultText(BYE, sheet({ first_result: 'bye', second_result: null, victory: null, points: { first: 1, second: 0 } }), name),
    'Kato: bye · 1');
  // A correction's before and after carry no points: said without them.
  assert.equal(resultText(TABLE, { first_result: 'won', second_result: 'lost', victory: 'resigned' }, name), 'Kato won (resignation)');
});

test('a sheet as the correction form\'s choices', () => {
  assert.deepEqual(currentOutcome(sheet({})), { result: 'first', victory: 'no-move' });
  // A forfeit is, as a game's outcome, a win by abandonment.
  assert.deepEqual(currentOutcome(sheet({ first_result: 'forfeit-lost', second_result: 'forfeit-won', victory: 'forfeit' })),
    { result: 'second', victory: 'abandoned' });
  assert.deepEqual(currentOutcome(sheet({ first_result: 'annulled', second_result: 'annulled', victory: 'never-ending' })),
    { result: 'annulled', victory: 'never-ending' });
  assert.deepEqual(currentOutcome(sheet({ first_result: 'adjudicated-drawn', second_result: 'adjudicated-drawn', victory: 'adjudicated' })),
    { result: 'draw', victory: '' });
});

test('the draw a correction makes: Oware\'s played out, Omweso\'s and Mweiso\'s only on adjudication', () => {
  assert.deepEqual(drawCorrection('oware'), { label: 'Draw', adjudicated: false });
  assert.deepEqual(drawCorrection('omweso'), { label: 'Draw on adjudication', adjudicated: true });
  assert.deepEqual(drawCorrection('mweiso'), { label: 'Draw on adjudication', adjudicated: true });
});

test('a pairing\'s key: the tables in order, a bye as an empty second', () => {
  assert.equal(pairingKey([{ first: 'kato', second: 'nakato' }, { first: 'apio', second: null }]), '[["kato","nakato"],["apio",""]]');
  // The same players at other tables, or with the first move swapped, are another pairing.
  assert.notEqual(pairingKey([{ first: 'nakato', second: 'kato' }]), pairingKey([{ first: 'kato', second: 'nakato' }]));
  assert.equal(pairingKey([{ first: 'kato', second: '' }]), pairingKey([{ first: 'kato', second: null }]));
});
