// Rated games in the browser (docs/ratings.md): two accounts create and join a game from
// the lobby's form ("Rated" is the default), the lobby and the game page show their
// ratings with the provisional mark (`1500?`) and that the game is rated; after the result
// both cards show the change (the winner +241, the loser −241: two new players, the values
// of crates/server/src/ratings/glicko.rs). A casual choice sends `rated: false`. Real
// server, headless Chromium at a phone's size; any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { call } from './helpers/protocol.js';
import { signInContext } from './helpers/tournament.js';
import { assertAccessible } from './helpers/axe.js';

const live = serverAndBrowser();

const PASSWORD = 'seeds in the outer row at dusk';

/** A phone signed in as a new account. @param {string} username */
async function accountPhone(username) {
  const made = await call(live.server.url, null, 'POST', '/api/account', { username, password: PASSWORD });
  const opened = await openPage(live.browser, username, PHONE);
  await signInContext(opened.context, live.server.url, { token: made.token, player_id: made.player_id, name: made.name });
  return opened;
}

/** The game as a page shows it, settled at a version of at least `min`. @param {import('playwright-core').Page} page @param {number} [min] */
async function settled(page, min = 0) {
  const handle = await page.waitForFunction((v) => {
    const s = /** @type {any} */ (window).__omweso?.settled();
    return s && s.version >= v ? s : null;
  }, min);
  return handle.jsonValue();
}

/** The player to move plays the first thing their page offers. @param {import('playwright-core').Page[]} pages @param {Record<string, import('playwright-core').Page>} bySeat */
async function playOne(pages, bySeat) {
  const states = await Promise.all(pages.map((p) => settled(p)));
  const version = Math.max(...states.map((s) => s.version));
  const mover = bySeat[states[0].to_move];
  await mover.waitForSelector('[data-choice], [data-legal]');
  const choice = mover.locator('[data-choice]');
  if (await choice.count()) await choice.first().click();
  else await mover.locator('svg[data-board] [data-legal]').first().click();
  await mover.mouse.move(1, 1);
  return Promise.all(pages.map((p) => settled(p, version + 1)));
}

test('a rated game between two accounts shows both ratings, then both changes', { timeout: 120000 }, async () => {
  const south = await accountPhone('kato_rates');
  const north = await accountPhone('nakato_rates');
  await south.page.goto(`${live.server.url}/?anim=0`);
  assert.equal(await south.page.inputValue('#new-rated'), 'rated', 'rated is the default');
  assert.match(await south.page.locator('#new-rated-hint').innerText(), /Needs an account/);
  await south.page.selectOption('#new-ruleset', 'omweso');
  await south.page.selectOption('#new-setup', 'outer');
  await south.page.selectOption('#new-time', 'casual');
  await south.page.selectOption('#new-seat', 'first');
  await south.page.click('#create-game');
  const invite = String(await (await south.page.waitForSelector('[data-invite]')).getAttribute('data-invite'));
  const gameId = invite.split('/g/')[1];

  // The lobby lists it as rated, with its creator's provisional rating.
  await north.page.goto(`${live.server.url}/?anim=0`);
  const row = north.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  assert.match(await row.innerText(), /kato_rates \(1500\?\)/);
  assert.match(await row.innerText(), /rated/);
  await assertAccessible(north.page, 'the lobby with a rated game');
  await row.locator('[data-join]').click();
  await north.page.waitForURL(new RegExp(`/g/${gameId}`));
  await south.page.goto(`${live.server.url}/g/${gameId}?anim=0`);
  await settled(north.page, 2);
  for (const page of [south.page, north.page]) {
    await page.waitForSelector('[data-rated="true"]');
    assert.deepEqual(await page.locator('[data-rating]').evaluateAll((els) => els.map((e) => e.getAttribute('data-rating'))), ['1500?', '1500?']);
  }
  await assertAccessible(south.page, 'a rated game page');

  const pages = [south.page, north.page];
  const bySeat = { s: south.page, n: north.page };
  await playOne(pages, bySeat);
  await playOne(pages, bySeat);
  await south.page.click('[data-resign]');
  await south.page.click('[data-resign-confirm]');
  // North won: +241 on North's card, −241 on South's, on both pages.
  for (const page of pages) {
    await page.waitForSelector('[data-rating-change="241"]');
    await page.waitForSelector('[data-rating-change="-241"]');
    assert.match(await page.locator('[data-rating-line]').innerText(), /nakato_rates.*1500 → 1741 \(\+241\)/);
  }
  await assertAccessible(north.page, 'a rated game over');
  const problems = [south, north].flatMap((p) => p.problems);
  await Promise.all([south.context.close(), north.context.close()]);
  assert.deepEqual(problems, []);
});

test('a casual game is asked for with rated: false', { timeout: 60000 }, async () => {
  const phone = await accountPhone('apio_casual');
  await phone.page.goto(`${live.server.url}/?anim=0`);
  await phone.page.selectOption('#new-rated', 'casual');
  await phone.page.click('#create-game');
  const invite = String(await (await phone.page.waitForSelector('[data-invite]')).getAttribute('data-invite'));
  await phone.page.goto(`${invite}?anim=0`);
  await phone.page.waitForSelector('[data-rated="false"]');
  assert.equal(await phone.page.locator('[data-rating]').getAttribute('data-rating'), '1500?');
  const problems = phone.problems;
  await phone.context.close();
  assert.deepEqual(problems, []);
});
