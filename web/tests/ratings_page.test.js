// Ratings on the player page (issue 29, docs/ratings.md): two accounts play a rated game
// (`POST /api/games` with `rated`) to its end, both having moved, and each one's player
// page `/@/<username>` shows their new Omweso rating, to the point, with its chart; the
// leaderboard lists nobody (both ratings are still provisional). Real server, headless
// Chromium at a phone's size; any console error or failed request fails.
//
// The expected values (Glicko-2 with lichess's parameters, docs/rules.md#6-ratings): both
// start at 1500, deviation 500, volatility 0.09, τ = 0.75; one game is its own rating
// period with no period elapsed before it. With μ = 0, φ = 500/173.7178 = 2.87823 for
// both: g(φ) = 1/√(1 + 3φ²/π²) = 0.53815, E = 0.5, v = 1/(g²E(1−E)) = 13.8118; the winner's
// φ' = 1/√(1/φ² + 1/v) = 2.28355 (deviation 396.69 → 397) and μ' = φ'² g (1 − E) = 1.39036,
// so 1500 + 173.7178 μ' = 1741.48 → 1741; the loser's is 1258.52 → 1259, deviation 397.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { call, session, waitFor, RandomMover } from './helpers/protocol.js';

const live = serverAndBrowser();

/** A password zxcvbn rates strong enough (docs/protocol.md, Passwords). */
const PASSWORD = 'seeds in the outer row at dusk';

/**
 * A guest who made the account `username`: its token.
 * @param {string} name @param {string} username
 */
async function account(name, username) {
  const guest = await session(live.server.url, name);
  const made = await call(live.server.url, guest.token, 'POST', '/api/account', { username, password: PASSWORD });
  return /** @type {string} */ (made.token);
}

/**
 * The player page's Omweso line as shown: the rating, its deviation line, the chart's points.
 * @param {import('playwright-core').Page} page
 */
async function omwesoShown(page) {
  return page.evaluate(() => {
    const item = document.querySelector('[data-rating="omweso"]');
    return {
      rating: item?.querySelector('[data-rating-value]')?.textContent || '',
      value: Number(item?.querySelector('[data-rating-value]')?.getAttribute('data-rating-value')),
      line: item?.querySelector('.rating-value .muted')?.textContent || '',
      provisional: Boolean(item?.querySelector('[data-provisional]')),
      points: [...(item?.querySelectorAll('[data-rating-point]') || [])].map((c) => Number(c.getAttribute('data-rating-point'))),
    };
  });
}

test('a rated game between two accounts changes both ratings on their player pages', async () => {
  const base = live.server.url;
  const kato = await account('Kato', 'kato');
  const nakato = await account('Nakato', 'nakato');
  const { game_id: gameId } = await call(base, kato, 'POST', '/api/games', { ruleset: 'omweso', setup: 'outer', rated: true });
  await call(base, nakato, 'POST', `/api/games/${gameId}/join`, {});

  // Each plays three turns (a game given up sooner is not rated), then North resigns.
  const movers = [
    new RandomMover({ baseUrl: base, gameId, token: kato, seed: 3, thinkMs: [5, 20], maxMoves: 3 }),
    new RandomMover({ baseUrl: base, gameId, token: nakato, seed: 4, thinkMs: [5, 20], maxMoves: 3 }),
  ];
  movers.forEach((m) => m.start());
  await waitFor(async () => {
    const g = await call(base, kato, 'GET', `/api/games/${gameId}`);
    return g.history.length >= 6 && !g.pending ? g : null;
  }, 'both players made three turns');
  const north = movers.find((m) => m.you === 'n') || movers[1];
  await north.resign();
  movers.forEach((m) => m.stop());
  const end = await call(base, kato, 'GET', `/api/games/${gameId}`);
  assert.deepEqual(end.outcome, { result: 'win', winner: 's', victory: 'resigned' });
  const southIsKato = end.seats.s.name === 'Kato';
  const expected = {
    kato: southIsKato ? 1741 : 1259,
    nakato: southIsKato ? 1259 : 1741,
  };

  for (const username of /** @type {const} */ (['kato', 'nakato'])) {
    const { context, page, problems } = await openPage(live.browser, username, PHONE);
    await page.goto(`${base}/@/${username}`);
    await page.waitForSelector('[data-rating="omweso"] [data-rating-value]');
    const shown = await omwesoShown(page);
    assert.deepEqual(shown, {
      rating: `${expected[username]}?`,
      value: expected[username],
      line: ' ± 397 · 1 rated game',
      provisional: true,
      points: [expected[username]],
    }, `${username}'s page`);
    // The chart is ours: an SVG in the page, labelled for a screen reader.
    const label = await page.locator('[data-rating="omweso"] svg[data-rating-chart]').getAttribute('aria-label');
    assert.equal(label, `Omweso rating: ${expected[username]} after the first rated game, ${expected[username]} now, over 1 game`);
    // The recent games link to the game's permanent page.
    assert.equal(await page.locator(`[data-person-game="${gameId}"] a`).getAttribute('href'), `/g/${gameId}`);
    await context.close();
    assert.deepEqual(problems, [], `${username}'s page logged problems:\n${problems.join('\n')}`);
  }

  // Both are still provisional (deviation 397 ≥ 110): the leaderboard lists nobody.
  const { context, page, problems } = await openPage(live.browser, 'leaderboards', PHONE);
  await page.goto(`${base}/leaderboards`);
  await page.waitForSelector('[data-no-leaders]');
  assert.equal(await page.locator('[data-leaderboard-tab="omweso"]').getAttribute('aria-current'), 'page');
  await page.click('[data-leaderboard-tab="oware"]');
  await page.waitForSelector('[data-leaderboard-tab="oware"][aria-current="page"]');
  await page.waitForSelector('[data-no-leaders]');
  await context.close();
  assert.deepEqual(problems, [], `the leaderboards logged problems:\n${problems.join('\n')}`);
});

test('a rating history that fails leaves the player page drawn without the charts', async () => {
  const base = live.server.url;
  // Kato is rated (the test before): his page asks for the history of his ratings.
  const { context, page, problems } = await openPage(live.browser, 'kato', PHONE);
  // The server is busy: its rating history answers 503.
  await page.route('**/api/players/kato/rating-history', (route) => route.fulfill({
    status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'busy' }),
  }));
  await page.goto(`${base}/@/kato`);
  await page.waitForSelector('[data-no-rating-charts]');
  assert.equal(await page.locator('[data-player-name]').textContent(), 'Kato');
  assert.equal(await page.locator('[data-player-username]').textContent(), '@kato');
  // The ratings are drawn from the page itself; only their charts are missing.
  await page.waitForSelector('[data-rating="oware"], [data-rating="omweso"], [data-rating="mweiso"]');
  assert.equal(await page.locator('.person-page svg').count(), 0);
  await context.close();
  // The one failed request is the one made to fail (and the browser's line about it).
  assert.ok(problems.length > 0, 'the 503 was seen');
  assert.deepEqual(problems.filter((p) => !p.includes('503')), [], problems.join('\n'));
});

test('an account never rated asks for no rating history', async () => {
  const base = live.server.url;
  await account('Mukasa', 'mukasa');
  const { context, page, problems } = await openPage(live.browser, 'mukasa', PHONE);
  /** @type {string[]} */
  const asked = [];
  page.on('request', (request) => { if (request.url().includes('/rating-history')) asked.push(request.url()); });
  await page.goto(`${base}/@/mukasa`);
  await page.waitForSelector('[data-no-ratings]');
  assert.equal(await page.locator('[data-player-name]').textContent(), 'Mukasa');
  await context.close();
  assert.deepEqual(asked, []);
  assert.deepEqual(problems, [], problems.join('\n'));
});
