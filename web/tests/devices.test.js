// People on an event day (issue 27), in the browser: the director of a running Swiss moves
// to a second device by logging in, then to a third by a link code, and pairs, ends a round
// and corrects a sheet from them with the earlier devices closed; a player whose phone dies
// in the middle of a game comes back on another phone with the code the director gives
// them, finishes the game and confirms the sheet. Real server, headless Chromium at a
// phone's size (a laptop's for the director), any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { call, waitFor } from './helpers/protocol.js';
import { createTournament, joinPlayers, pairAndStart, signInContext, snapshot } from './helpers/tournament.js';

const live = serverAndBrowser();

/** A password zxcvbn rates strong enough (docs/protocol.md, Passwords). */
const PASSWORD = 'seeds in the outer row at dusk';

/** @typedef {Awaited<ReturnType<typeof openPage>>} Opened */

/** Closes the pages, failing on anything they logged. @param {Opened[]} pages */
async function closeAll(pages) {
  const problems = pages.flatMap((p) => p.problems);
  await Promise.all(pages.map((p) => p.context.close()));
  assert.deepEqual(problems, [], `the pages logged problems:\n${problems.join('\n')}`);
}

test('the director moves to a second device by logging in and to a third by a link code, and runs the Swiss from them', { timeout: 150000 }, async () => {
  const base = live.server.url;
  const t = await createTournament(base, { name: 'Hall Open', rounds: 2, round_minutes: 30 }, 'Mukasa');
  // The director makes an account from the session that created the tournament.
  const made = await call(base, t.director.token, 'POST', '/api/account', { username: 'mukasa', password: PASSWORD });
  const players = await joinPlayers(base, t.id, 4, { names: ['Kato', 'Nakato', 'Apio', 'Okello'] });
  await pairAndStart(base, t.id, made.token);

  // The laptop: the console is there; then its battery goes flat.
  const laptop = await openPage(live.browser, 'laptop');
  await signInContext(laptop.context, base, { ...t.director, token: made.token });
  await laptop.page.goto(`${t.url}?anim=0`);
  await laptop.page.waitForSelector('#director-console [data-end-round="1"]');
  await closeAll([laptop]);

  // A phone: logs in from the tournament's page and comes back to it with the console.
  const phone = await openPage(live.browser, 'director phone', PHONE);
  await phone.page.goto(`${t.url}?anim=0`);
  await phone.page.click('[data-log-in-link]');
  await phone.page.waitForSelector('#login');
  await phone.page.fill('#login-username', 'Mukasa');
  await phone.page.fill('#login-password', PASSWORD);
  await phone.page.click('#login-submit');
  await phone.page.waitForURL(`${t.url}?anim=0`);
  await phone.page.waitForSelector('#director-console [data-end-round="1"]');
  // Ends round 1 now: its games are adjudicated.
  phone.page.once('dialog', (d) => d.accept());
  await phone.page.click('[data-end-round="1"]');
  await waitFor(async () => (await snapshot(base, t.id, made.token)).rounds[0].status === 'finished', 'round 1 over');
  // Corrects table 1's sheet.
  const round1 = (await snapshot(base, t.id, made.token)).rounds[0];
  const game = round1.pairings[0].game_id;
  await phone.page.waitForSelector(`[data-correct="${game}"]`);
  await phone.page.click(`[data-correct="${game}"]`);
  await phone.page.selectOption('#correct-result', 'first');
  await phone.page.fill('#correct-reason', 'the players agreed the count at the board');
  await phone.page.click(`[data-correct-submit="${game}"]`);
  await phone.page.waitForSelector(`[data-sheet-row="${game}"][data-status="corrected"]`);
  // Pairs round 2.
  await phone.page.click('[data-pair-next]');
  await phone.page.waitForSelector('[data-start-round="2"]');

  // The phone shows a link code; then it is lost too.
  await phone.page.goto(`${base}/account`);
  await phone.page.click('[data-make-link-code]');
  const code = String(await phone.page.locator('[data-link-code]').getAttribute('data-link-code'));
  await closeAll([phone]);

  // A borrowed tablet takes the code and starts round 2 from the console.
  const tablet = await openPage(live.browser, 'borrowed tablet');
  await tablet.page.goto(`${base}/link?code=${code.replace('-', '')}&next=${encodeURIComponent(`/t/${t.id}?anim=0`)}`);
  await tablet.page.click('#link-submit');
  await tablet.page.waitForURL(`${t.url}?anim=0`);
  await tablet.page.waitForSelector('#director-console [data-start-round="2"]');
  await tablet.page.click('[data-start-round="2"]');
  await waitFor(async () => (await snapshot(base, t.id, made.token)).rounds[1]?.status === 'playing', 'round 2 started');

  // Every action is the director's, under their name, from three devices.
  const { actions } = await call(base, made.token, 'GET', `/api/tournaments/${t.id}/actions`);
  const kinds = actions.filter((/** @type {any} */ a) => ['pair', 'start', 'end_round', 'sheet'].includes(a.kind));
  assert.deepEqual(kinds.map((/** @type {any} */ a) => `${a.kind} by ${a.by_name}`), [
    'pair by Mukasa', 'start by Mukasa', 'end_round by Mukasa', 'sheet by Mukasa', 'pair by Mukasa', 'start by Mukasa',
  ]);
  const { devices } = await call(base, made.token, 'GET', '/api/devices');
  assert.equal(devices.length, 3, 'the laptop (whose token the test holds), the phone and the tablet');
  assert.equal(players.length, 4);
  await closeAll([tablet]);
});

test('a player whose phone dies mid-game comes back on another phone with the director\'s code, finishes and confirms the sheet', { timeout: 150000 }, async () => {
  const base = live.server.url;
  const t = await createTournament(base, { name: 'Phones Cup', rounds: 1, round_minutes: 30 }, 'Mukasa');
  const [kato, nakato] = await joinPlayers(base, t.id, 2, { names: ['Kato', 'Nakato'] });
  const round = await pairAndStart(base, t.id, t.director.token);
  const game = round.pairings[0].game_id;

  // Kato's phone opens the game, then dies.
  const first = await openPage(live.browser, 'Kato\'s phone', PHONE);
  await signInContext(first.context, base, kato);
  await first.page.goto(`${base}/g/${game}?anim=0`);
  await first.page.waitForFunction(() => /** @type {any} */ (window).__omweso?.settled()?.you);
  await closeAll([first]);

  // The director gives Kato a code from the console.
  const director = await openPage(live.browser, 'director');
  await signInContext(director.context, base, t.director);
  await director.page.goto(`${t.url}?anim=0`);
  await director.page.click(`[data-device-code-for="${kato.player_id}"]`);
  const code = String(await director.page.locator('[data-link-code]').getAttribute('data-link-code'));

  // A friend's phone becomes Kato: the tournament page takes them to their table.
  const second = await openPage(live.browser, 'friend\'s phone', PHONE);
  await second.page.goto(`${base}/link`);
  await second.page.fill('#link-code', code.toLowerCase());
  await second.page.click('#link-submit');
  await second.page.waitForURL(`${base}/`);
  await second.page.goto(`${t.url}?anim=0`);
  const toTable = second.page.locator(`a[href^="/g/${game}"]`).first();
  await toTable.waitFor();
  await toTable.click();
  await second.page.waitForURL(new RegExp(`/g/${game}`));
  const state = await (await second.page.waitForFunction(() => /** @type {any} */ (window).__omweso?.settled())).jsonValue();
  assert.equal(state.status, 'playing', 'within the grace: the game is still on');
  const seat = state.you;
  assert.ok(seat === 's' || seat === 'n', 'the friend\'s phone holds Kato\'s seat');
  // Kato finishes the game (resigns), then confirms the sheet.
  await second.page.click('[data-resign]');
  await second.page.click('[data-resign-confirm]');
  await second.page.waitForFunction(() => /** @type {any} */ (window).__omweso?.settled()?.status === 'finished');
  await second.page.goto(`${t.url}?anim=0`);
  await second.page.waitForSelector('#your-sheet [data-sheet-confirm]');
  await second.page.click('#your-sheet [data-sheet-confirm]');
  await waitFor(async () => {
    const sheet = (await snapshot(base, t.id, t.director.token)).rounds[0].pairings[0].sheet;
    return sheet?.confirmed_by?.includes(kato.player_id);
  }, 'Kato\'s confirmation');
  assert.ok(nakato.player_id);
  await closeAll([director, second]);
});
