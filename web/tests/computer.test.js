// A game against the computer in the real page, against the real server, in headless
// Chromium: "Play the computer" in the lobby, then a whole game played by clicking, the
// computer answering through the server like any opponent. The page has the default
// settings, as a user gets them: every turn is animated. Played twice: skipping each turn's
// animation by the page's button, and watching each to its end (fewer moves). The
// computer's least delay is cut to 100 ms so the test stays short.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './helpers/server.js';
import { launch, openPage } from './helpers/browser.js';
import { rng } from './helpers/protocol.js';
import { audit, format } from './helpers/axe.js';
import { assertOmwesoOutcome } from './helpers/outcome.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '..', 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  [server, browser] = await Promise.all([startServer({ env: { OMWESO_COMPUTER_DELAY_MS: '100' } }), launch()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * The game as the page shows it once settled and waiting for the player (their move or
 * decision), or over. With `skip`, a turn being animated meanwhile is skipped by the page's
 * "Skip animation" button, as a user may (pressed in the page itself, in the same step that
 * sees it shown: it hides the moment the animation ends).
 * @param {import('playwright-core').Page} page @param {boolean} skip
 * @returns {Promise<any>}
 */
async function myTurnOrEnd(page, skip) {
  const handle = await page.waitForFunction((skip) => {
    const s = /** @type {any} */ (window).__omweso?.settled();
    // A move that ends the game shows its outcome a moment before the `end` event.
    if (s && (s.status !== 'playing' || s.outcome || s.to_move === s.you)) return s;
    if (skip) /** @type {HTMLElement | null} */ (document.querySelector('[data-skip]:not([hidden])'))?.click();
    return null;
  }, skip, { timeout: 20000 });
  return handle.jsonValue();
}

/**
 * A game against the computer, from the lobby (default settings): `limit` moves of ours at
 * most, then we resign. `skip`: every turn's animation is skipped by the page's button.
 * @param {number} limit @param {string} shots the screenshot's name suffix @param {boolean} skip
 */
async function gameAgainstTheComputer(limit, shots, skip) {
  const { context, page, problems } = await openPage(browser, 'player');
  await page.goto(`${server.url}/`);
  await page.click('[data-choose-name]');
  await page.fill('#name-input', 'Kato');
  await page.click('#name-submit');
  await page.waitForSelector('[data-me="Kato"]');

  // The lobby's card: every level described; the computer moves first (we sit North).
  const levels = await page.locator('#bot-level option').allInnerTexts();
  assert.equal(levels.length, 8);
  assert.match(levels[0], /^1 — Beginner/);
  assert.match(levels[7], /^8 — Strongest/);
  await page.selectOption('#bot-ruleset', 'omweso');
  await page.selectOption('#bot-setup', 'outer');
  await page.selectOption('#bot-level', '1');
  await page.selectOption('#bot-time', 'casual');
  await page.selectOption('#bot-seat', 'second');
  await page.click('#play-computer');
  await page.waitForURL(/\/g\/[0-9a-f-]{36}/);

  // The game page: the computer's seat says so, is never "not connected", and there is
  // no invite to send nor a seat to take.
  let state = await myTurnOrEnd(page, skip);
  assert.equal(state.you, 'n');
  assert.ok(state.history >= 1, 'the computer (South) has moved first');
  await page.waitForSelector('.player-card[data-seat="s"] [data-computer="1"]');
  assert.equal(await page.locator('.player-card[data-seat="s"] [data-connected="true"]').count(), 1);
  assert.equal(await page.locator('.offline').count(), 0, 'nobody shows as not connected');
  assert.equal(await page.locator('[data-invite]').count(), 0, 'no invite link against the computer');
  assert.equal(await page.locator('[data-join-seat]').count(), 0, 'no free seat to offer');
  assert.match(await page.locator('.player-card[data-seat="s"] .player-name').innerText(), /^Computer \(level 1\)$/);
  const violations = await audit(page);
  assert.deepEqual(violations, [], `accessibility of the game against the computer:\n${format(violations)}`);

  const random = rng(14);
  let moves = 0;
  while (state.status === 'playing' && !state.outcome && moves < limit) {
    const choices = page.locator('[data-choice]');
    const count = await choices.count();
    const target = count
      ? choices.nth(Math.floor(random() * count))
      : page.locator('[data-legal]').nth(Math.floor(random() * await page.locator('[data-legal]').count()));
    await target.click();
    await page.mouse.move(1, 1);
    const before = state.version;
    // The computer's answer comes by itself; the page settles on the player's turn again.
    await page.waitForFunction(({ v, skip }) => {
      const s = /** @type {any} */ (window).__omweso?.settled();
      if (s && s.version > v) return true;
      if (skip) /** @type {HTMLElement | null} */ (document.querySelector('[data-skip]:not([hidden])'))?.click();
      return false;
    }, { v: before, skip }, { timeout: 20000 });
    state = await myTurnOrEnd(page, skip);
    moves += 1;
    if (moves === 6) await page.screenshot({ path: path.join(ARTIFACTS, `computer-game${shots}.png`) });
  }
  if (state.status === 'playing' && !state.outcome) {
    // A game that runs past the cap is ended by resigning (through the page).
    await page.click('[data-resign]');
    await page.click('[data-resign-confirm]');
    await page.waitForFunction(() => /** @type {any} */ (window).__omweso?.settled()?.status === 'finished');
  }
  const final = await (await page.waitForFunction(() => {
    const s = /** @type {any} */ (window).__omweso?.settled();
    return s && s.status !== 'playing' ? s : null;
  })).jsonValue();
  // The result in exact words, to us (North).
  await assertOmwesoOutcome(page, final, { s: 'Computer (level 1)', n: 'Kato' }, 'n');
  assert.equal(await page.locator('[data-history-index]').count(), final.history, 'the page lists every move, the computer\'s too');
  console.log(`against the computer${shots}: ${moves} moves of ours, ${final.history} in all, ${JSON.stringify(final.outcome)}`);
  await context.close();
  assert.deepEqual(problems, [], `the page logged problems:\n${problems.join('\n')}`);
}

test('a whole game against the computer (level 1), from the lobby, by clicking', { timeout: 600000 }, async () => {
  await gameAgainstTheComputer(60, '', true);
});

test('a game against the computer with every animation played out, as users watch it', { timeout: 600000 }, async () => {
  await gameAgainstTheComputer(12, '-animated', false);
});
