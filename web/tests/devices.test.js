// People on an event day (issue 27), in the browser: the director of a running Swiss moves
// to a second device by logging in, then to a third by a link code, and pairs, ends a round
// and corrects a sheet from them with the earlier devices closed; a player whose phone dies
// in the middle of a game scans the QR code the director gives them (offered only for
// guests) on another phone and is back at the table in one tap (measured), the console
// showing the code as used; the phone is that player in that tournament only. Real server,
// headless Chromium at a phone's size (a laptop's for the director), any console error
// fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { keepLinkWords, linkWords, openPage, PHONE } from './helpers/browser.js';
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
  await laptop.page.goto(t.url);
  await laptop.page.waitForSelector('#director-console [data-end-round="1"]');
  await closeAll([laptop]);

  // A phone: logs in from the tournament's page and comes back to it with the console.
  const phone = await openPage(live.browser, 'director phone', PHONE);
  await phone.page.goto(t.url);
  await phone.page.click('[data-log-in-link]');
  await phone.page.waitForSelector('#login');
  await phone.page.fill('#login-username', 'Mukasa');
  await phone.page.fill('#login-password', PASSWORD);
  await phone.page.click('#login-submit');
  await phone.page.waitForURL(t.url);
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
  await tablet.page.goto(`${base}/link?code=${code.replace('-', '')}&next=${encodeURIComponent(`/t/${t.id}`)}`);
  await tablet.page.click('#link-submit');
  await tablet.page.waitForURL(t.url);
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

test('a player whose phone dies mid-game scans the director\'s code and is back at the table in one tap, that tournament only', { timeout: 150000 }, async (t) => {
  const base = live.server.url;
  const cup = await createTournament(base, { name: 'Phones Cup', rounds: 1, round_minutes: 30 }, 'Mukasa');
  const [kato, nakato] = await joinPlayers(base, cup.id, 2, { names: ['Kato', 'Nakato'] });
  // Nakato has an account: no director may give it a device.
  await call(base, nakato.token, 'POST', '/api/account', { username: 'nakato', password: PASSWORD });
  const round = await pairAndStart(base, cup.id, cup.director.token);
  const game = round.pairings[0].game_id;

  // Kato's phone opens the game, then dies.
  const first = await openPage(live.browser, 'Kato\'s phone', PHONE);
  await signInContext(first.context, base, kato);
  await first.page.goto(`${base}/g/${game}`);
  await first.page.waitForFunction(() => /** @type {any} */ (window).__omweso?.settled()?.you);
  await closeAll([first]);

  // The console offers a new device where it can work, and says why not beside the other.
  const director = await openPage(live.browser, 'director');
  await signInContext(director.context, base, cup.director);
  await director.page.goto(cup.url);
  await director.page.waitForSelector(`[data-device-code-for="${kato.player_id}"]`);
  assert.equal(await director.page.locator(`[data-device-code-for="${nakato.player_id}"]`).count(), 0);
  assert.equal(
    await director.page.locator(`[data-no-device-code="${nakato.player_id}"]`).textContent(),
    'Nakato has an account: they log in on the new device (or use a recovery code)',
  );
  const [made] = await Promise.all([
    director.page.waitForResponse((r) => r.url().endsWith(`/players/${kato.player_id}/link-code`)),
    director.page.click(`[data-device-code-for="${kato.player_id}"]`),
  ]);
  const { url, code } = await made.json();
  assert.equal(url, `${base}/link?code=${code.replace('-', '')}`, 'the QR code holds the link page with the code');
  await director.page.waitForSelector(`[data-device-code="${kato.player_id}"] [data-link-code="${code}"]`);

  // A friend's phone scans it: the link page, the code filled in, one tap, and the game.
  const second = await openPage(live.browser, 'friend\'s phone', PHONE);
  // What the link page says on the way, kept for the test across the navigation.
  await keepLinkWords(second.page);
  const scanned = Date.now();
  await second.page.goto(url);
  let taps = 0;
  await second.page.click('#link-submit');
  taps += 1;
  await second.page.waitForURL(`${base}/g/${game}`);
  assert.equal(await linkWords(second.page), 'Taking you to your table 1, round 1 of Phones Cup: your game…');
  // Seated, and shown to both players as connected (the grace no longer runs).
  const state = await (await second.page.waitForFunction(() => {
    const omweso = /** @type {any} */ (window).__omweso;
    const settled = omweso?.settled();
    return settled?.you && omweso.session.snap.seats[settled.you]?.connected ? settled : null;
  })).jsonValue();
  const atTable = Date.now() - scanned;
  t.diagnostic(`from opening the QR address to seated and connected: ${taps} tap, ${atTable} ms`);
  assert.equal(taps, 1);
  assert.ok(atTable < 20000, `at the table in ${atTable} ms, well within the 60 s disconnect grace`);
  assert.equal(state.status, 'playing', 'within the grace: the game is still on');
  await second.page.waitForSelector('[data-limited]');
  await second.page.waitForSelector(`[data-back-to-tournament="${cup.id}"]`);

  // The console learns the code was used: it no longer shows it as good.
  await director.page.waitForSelector(`[data-device-code="${kato.player_id}"][data-device-code-used="true"]`);
  assert.equal(await director.page.locator(`[data-link-code="${code}"]`).count(), 0);

  // Kato finishes the game (resigns), then confirms the sheet from the tournament page.
  await second.page.click('[data-resign]');
  await second.page.click('[data-resign-confirm]');
  await second.page.waitForFunction(() => /** @type {any} */ (window).__omweso?.settled()?.status === 'finished');
  await second.page.click(`[data-back-to-tournament="${cup.id}"]`);
  await second.page.waitForSelector('#your-sheet [data-sheet-confirm]');
  await second.page.click('#your-sheet [data-sheet-confirm]');
  await waitFor(async () => {
    const sheet = (await snapshot(base, cup.id, cup.director.token)).rounds[0].pairings[0].sheet;
    return sheet?.confirmed_by?.includes(kato.player_id);
  }, 'Kato\'s confirmation');
  // Anywhere else the phone says what it is, and the way back or out.
  await second.page.goto(`${base}/`);
  await second.page.waitForSelector(`[data-limited-notice="${cup.id}"]`);
  assert.equal(await second.page.locator('h1').textContent(), 'This device is Kato in Phones Cup only');
  await closeAll([director, second]);
});
