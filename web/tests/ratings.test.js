// Rated games in the browser (docs/ratings.md): two accounts create and join a game from
// the lobby's form ("Rated" is the default), the lobby and the game page show their
// ratings with the provisional mark (`1500?`) and that the game is rated; after the result
// both cards show the change (the winner +241, the loser −241: two new players, the values
// of crates/ratings/src/glicko.rs). A casual choice sends `rated: false`. A visitor
// without a session watching a rated tournament's game sees both changes once its sheet
// rates it, and the new ones when the director corrects the sheet, without a reload. Real
// server, headless Chromium at a phone's size; any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { call, RandomMover, waitFor } from './helpers/protocol.js';
import { signInContext, createTournament, pairAndStart } from './helpers/tournament.js';
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
  await south.page.goto(`${live.server.url}/`);
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
  await north.page.goto(`${live.server.url}/`);
  const row = north.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  assert.match(await row.innerText(), /kato_rates \(1500\?\)/);
  assert.match(await row.innerText(), /rated/);
  await assertAccessible(north.page, 'the lobby with a rated game');
  await row.locator('[data-join]').click();
  await north.page.waitForURL(new RegExp(`/g/${gameId}`));
  await south.page.goto(`${live.server.url}/g/${gameId}`);
  await settled(north.page, 2);
  for (const page of [south.page, north.page]) {
    await page.waitForSelector('[data-rated="true"]');
    assert.deepEqual(await page.locator('[data-rating]').evaluateAll((els) => els.map((e) => e.getAttribute('data-rating'))), ['1500?', '1500?']);
  }
  await assertAccessible(south.page, 'a rated game page');

  const pages = [south.page, north.page];
  const bySeat = { s: south.page, n: north.page };
  // Three turns each: a game given up sooner is too short to be rated (docs/ratings.md).
  for (let turn = 0; turn < 6; turn += 1) await playOne(pages, bySeat);
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
  await phone.page.goto(`${live.server.url}/`);
  await phone.page.selectOption('#new-rated', 'casual');
  await phone.page.click('#create-game');
  const invite = String(await (await phone.page.waitForSelector('[data-invite]')).getAttribute('data-invite'));
  await phone.page.goto(invite);
  await phone.page.waitForSelector('[data-rated="false"]');
  assert.equal(await phone.page.locator('[data-rating]').getAttribute('data-rating'), '1500?');
  const problems = phone.problems;
  await phone.context.close();
  assert.deepEqual(problems, []);
});

test('a visitor watching a rated tournament game sees its rating changes, and a correction\'s', { timeout: 120000 }, async () => {
  const url = live.server.url;
  const players = [];
  for (const username of ['okello_rt', 'auma_rt']) players.push(await call(url, null, 'POST', '/api/account', { username, password: PASSWORD }));
  const event = await createTournament(url, { name: 'Rated evening', ruleset: 'oware', rounds: 1, rated: true });
  for (const p of players) await call(url, p.token, 'POST', `/api/tournaments/${event.id}/join`);
  const round = await pairAndStart(url, event.id, event.director.token);
  const { game_id: gameId, first } = round.pairings[0];
  const [south, north] = first === players[0].player_id ? players : [players[1], players[0]];

  // A relative on a phone, with no session at all.
  const visitor = await openPage(live.browser, 'visitor', PHONE);
  await visitor.page.goto(`${url}/g/${gameId}`);
  await visitor.page.waitForSelector('[data-rated="true"]');
  // Three turns each (a game given up sooner is not rated), then South resigns: North
  // +241, South −241 (two new players).
  const movers = [south, north].map((p, i) => new RandomMover({ baseUrl: url, gameId, token: p.token, seed: i + 7, thinkMs: [0, 0], maxMoves: 3 }).start());
  await waitFor(() => movers.every((m) => m.moves === 3), 'both players to have made three turns');
  await movers[0].resign();
  for (const m of movers) m.stop();
  await visitor.page.waitForSelector('[data-rating-change="241"]');
  await visitor.page.waitForSelector('[data-rating-change="-241"]');
  // The game is over: nobody shows as "not connected", and the way back is to the
  // tournament, not the lobby.
  await visitor.page.waitForFunction(() => document.querySelectorAll('.player-card [data-connected="over"]').length === 2);
  assert.equal(await visitor.page.locator('.player-card .offline').count(), 0);
  assert.equal(await visitor.page.locator('.outcome-box [data-back]').getAttribute('href'), `/t/${event.id}`);
  assert.equal(await visitor.page.locator('.outcome-box [data-back]').innerText(), 'Back to the tournament');
  assert.equal(await visitor.page.locator('.resign-box [data-back]').getAttribute('href'), `/t/${event.id}`);
  assert.match(await visitor.page.locator('[data-rating-line]').innerText(), /auma_rt|okello_rt/);

  // The director corrects the sheet to a draw: the page open now shows 0 and 0.
  await call(url, event.director.token, 'POST', `/api/tournaments/${event.id}/sheets/${gameId}`,
    { action: 'correct', result: { result: 'draw' }, reason: 'both agreed it was level' });
  await waitFor(async () => (await visitor.page.locator('[data-rating-change="0"]').count()) === 2, 'both changes to be 0');
  assert.equal(await visitor.page.locator('[data-rating-change="241"], [data-rating-change="-241"]').count(), 0);

  // Nothing else a visitor's pages ask for fails either: the archive and a player's page
  // (which make no session), then the tournament and its hall screen (which make a
  // nameless one to read with).
  for (const [path, ready] of [
    [`/games?player=${south.name}`, '[data-archive-list] li'],
    [`/@/${north.name}`, 'h1'],
    ['/leaderboards', 'h1'],
    [`/t/${event.id}`, '.standings-table'],
    [`/t/${event.id}/screen`, '[data-hall-table]'],
    [`/g/${gameId}`, '[data-rating-change="0"]'],
  ]) {
    await visitor.page.goto(`${url}${path}`);
    await visitor.page.waitForSelector(ready);
    await visitor.page.waitForLoadState('networkidle');
  }
  const problems = [...visitor.problems, ...movers.flatMap((m) => m.problems)];
  await visitor.context.close();
  assert.deepEqual(problems, []);
});
