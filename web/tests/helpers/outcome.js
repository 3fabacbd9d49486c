// A game's result as the game page must word it ([data-outcome]), written out here by hand
// rather than taken from the page's own code (board/notation.js describeOutcome), so that a
// test compares the page's exact words with the words we mean, not with themselves.

import assert from 'node:assert/strict';

/** @typedef {{result: 'win', winner: 's'|'n', victory: string} | {result: 'draw'} | {result: 'annulled', reason: string}} Outcome */

/** The detail line of a win, by victory, said of the loser by name. */
const WIN_DETAIL = /** @type {Record<string, (loser: string) => string>} */ ({
  'no-move': (loser) => `No move: ${loser} has no pit with two seeds left.`,
  'emitwe-ebiri': () => 'Emitwe-ebiri: captured at both ends, columns A and H, in one turn.',
  akawumbi: () => 'Akawumbi: captured in all eight columns in one turn.',
  akakyala: (loser) => `Akakyala: captured twice before ${loser} captured at all.`,
  resigned: (loser) => `Resignation: ${loser} resigned.`,
  abandoned: (loser) => `Abandonment: ${loser} abandoned the game (did not move, or stayed away).`,
});

const ANNULLED_DETAIL = /** @type {Record<string, string>} */ ({
  'never-ending': 'The turn would never end (a state of the turn repeated).',
  budget: 'The turn took longer than the 3-minute move limit.',
});

/**
 * The headline and the explanation a game of Omweso's result page shows to `you` (a
 * player's side, or null for a watcher).
 * @param {Outcome} outcome @param {{s: string, n: string}} names the players' names
 * @param {'s'|'n'|null} you
 */
export function omwesoOutcomeWords(outcome, names, you) {
  const who = (/** @type {'s'|'n'} */ side) => `${names[side]} (${side === 's' ? 'South' : 'North'})`;
  if (outcome.result === 'win') {
    const detail = WIN_DETAIL[outcome.victory];
    assert.ok(detail, `a victory this test knows the words of: ${outcome.victory}`);
    const title = `${who(outcome.winner)} wins`;
    const mine = you === null ? '' : you === outcome.winner ? 'You win! ' : 'You lose. ';
    return { title: `${mine}${title}`, detail: detail(who(outcome.winner === 's' ? 'n' : 's')) };
  }
  if (outcome.result === 'annulled') {
    const detail = ANNULLED_DETAIL[outcome.reason];
    assert.ok(detail, `an annulment this test knows the words of: ${outcome.reason}`);
    return { title: 'The game is annulled', detail };
  }
  throw new Error('an Omweso game between people is drawn only on adjudication, which these games never reach');
}

/**
 * Checks the result a game page shows, word for word: the headline, the explanation and
 * the number of moves.
 * @param {import('playwright-core').Page} page
 * @param {{outcome: Outcome, history: number}} final the game as the page settled on it
 * @param {{s: string, n: string}} names @param {'s'|'n'|null} you
 */
export async function assertOmwesoOutcome(page, final, names, you) {
  const { title, detail } = omwesoOutcomeWords(final.outcome, names, you);
  const box = page.locator('[data-outcome]');
  await box.waitFor();
  assert.equal(await box.locator('h2').textContent(), title);
  assert.equal(await box.locator('p').first().textContent(), detail);
  assert.equal(await box.locator('p.muted').textContent(), `${final.history} moves.`);
}
