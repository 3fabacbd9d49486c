// A tournament in a school hall, one table on a wooden board, through its two pages for the
// room: the hall screen (/t/<id>/screen) on a 1920x1080 projector shows every table of the
// round with both names, who moves first, where it is played and the countdown, the online
// tables live as mini-boards and the standings in turn, fits the screen (and a 1280x720
// one) without scrolling, and follows the board's sheet, the round's end, a corrected sheet
// and the next round's pairing and start without a reload; the print view (/t/<id>/print)
// gives one score sheet per table, each a printed page, with the names and the table's QR
// code, and the pairings for the wall with the tournament's. Real server, headless
// Chromium; any console error fails. Screenshots go to web/test-artifacts/; with
// OMWESO_DOCS_SCREENSHOTS=1 the two docs/tournaments.md shows are copied to docs/ too. Then a server restarted under an open hall screen
// (the same address and database): the screen says it is reconnecting, carries on, and
// shows the round's end that follows, without a reload.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser } from './helpers/suite.js';
import { startServer } from './helpers/server.js';
import { openPage } from './helpers/browser.js';
import { call, waitFor } from './helpers/protocol.js';
import { assertAccessible } from './helpers/axe.js';
import { createTournament, joinPlayers, pairAndStart, signInContext, snapshot } from './helpers/tournament.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '..', 'test-artifacts');
const DOCS = path.resolve(here, '..', '..', 'docs');
/** Whether to renew the guide's pictures (docs/hall-screen.png, docs/score-sheet.png). */
const RENEW_DOCS = process.env.OMWESO_DOCS_SCREENSHOTS === '1';
mkdirSync(ARTIFACTS, { recursive: true });

const live = serverAndBrowser();

const NAMES = ['Okello Joseph', 'Nakato Aisha', 'Apio Grace', 'Mukasa Ronald', 'Namubiru Sarah', 'Ssali Peter'];

/**
 * The pairings a hall screen shows, row by row: the table, the player who moves first, the
 * result cell, the other player, where it is played.
 * @param {import('playwright-core').Page} page
 */
function hallRows(page) {
  return page.$$eval('[data-view="pairings"] [data-hall-table]', (rows) => rows.map((row) => {
    const cells = [...row.children].map((c) => c);
    const nameOf = (/** @type {Element} */ cell) => [...cell.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim();
    return {
      table: Number(row.getAttribute('data-hall-table')),
      first: nameOf(cells[1]), result: (cells[2].textContent || '').trim(), second: nameOf(cells[3]),
      where: (cells[4].textContent || '').trim(),
    };
  }));
}

/**
 * Asserts the hall screen fits its window: no scrolling, every row and board inside it,
 * every name whole (not cut short), in type of at least `minPx`.
 * @param {import('playwright-core').Page} page @param {number} minPx @param {string} what
 */
async function assertFits(page, minPx, what) {
  const fit = await page.evaluate(() => {
    const doc = document.documentElement;
    const stage = /** @type {HTMLElement} */ (document.getElementById('hall-stage')).getBoundingClientRect();
    const outOfWindow = [...document.querySelectorAll('.hall-head, .hall-foot')]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.bottom > innerHeight + 1 || r.right > innerWidth + 1).length;
    // The views' rows and boards inside the stage (it hides what overflows: cut off, unseen).
    const outOfStage = [...document.querySelectorAll('#hall-stage .hall-row, #hall-stage .mini')]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.bottom > stage.bottom + 1 || r.right > stage.right + 1).length;
    const outside = outOfWindow + outOfStage;
    const names = [...document.querySelectorAll('.hall-row:not(.head) .hall-player')];
    const cut = names.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent);
    const sizes = names.map((el) => parseFloat(getComputedStyle(el).fontSize));
    return {
      scrolls: doc.scrollHeight > innerHeight + 1 || doc.scrollWidth > innerWidth + 1, outside, cut,
      smallest: sizes.length ? Math.min(...sizes) : Infinity,
    };
  });
  assert.equal(fit.scrolls, false, `${what}: the page scrolls`);
  assert.equal(fit.outside, 0, `${what}: something is outside the screen`);
  assert.deepEqual(fit.cut, [], `${what}: names cut short`);
  assert.ok(fit.smallest >= minPx, `${what}: names in ${fit.smallest}px type, under ${minPx}px`);
}

/**
 * Waits for the hall screen to show `view`, faded in (axe measures the contrast of what it
 * sees: half-way through the fade is half as bright).
 * @param {import('playwright-core').Page} page @param {string} view
 */
async function viewShown(page, view) {
  await page.waitForSelector(`#hall-stage[data-view="${view}"]`, { timeout: 20000 });
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

test('the hall screen and the printed sheets of a round', { timeout: 240000 }, async () => {
  const base = live.server.url;
  // A time control under which absent players are not forfeited while the test looks.
  const t = await createTournament(base, {
    name: 'St. Mary\'s Hall Open', rounds: 3, round_minutes: 45,
    time_control: { preset: 'tournament', referee_seconds: null, disconnect_grace_seconds: 600 },
  }, 'Mukasa');
  const sessions = await joinPlayers(base, t.id, NAMES.length, { names: NAMES });
  const token = (/** @type {string} */ id) => /** @type {{token: string}} */ (sessions.find((s) => s.player_id === id)).token;
  // Tables 2 and 3 are played on wooden boards; the director relays table 3's moves.
  await call(base, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds`);
  for (const table of [2, 3]) await call(base, t.director.token, 'PUT', `/api/tournaments/${t.id}/rounds/1/played-at`, { played_at: 'board', table });
  const round1 = await call(base, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds/1/start`);
  assert.equal(round1.pairings.length, 3);
  await call(base, t.director.token, 'POST', `/api/tournaments/${t.id}/tables/1/3/relay`, {});
  const where = (/** @type {any} */ p) => ({ 1: 'online', 2: 'over the board', 3: 'relayed live' })[/** @type {1 | 2 | 3} */ (p.table)];
  const snap1 = await snapshot(base, t.id, t.director.token);
  const names = new Map(snap1.players.map((/** @type {any} */ p) => [p.player_id, p.name]));
  const nameOfId = (/** @type {string} */ id) => names.get(id) || '?';
  // The server's QR codes for the sheets (a server without them: the sheets say so).
  const qr = await fetch(`${base}/api/tournaments/${t.id}/qr?round=1`, { headers: { Authorization: `Bearer ${t.director.token}` } });
  const qrServed = qr.ok && (await qr.json()).tables?.length === 3;
  assert.ok(qrServed, 'the server gives the sheets\' QR codes');

  // ---- the hall screen, on a 1920x1080 projector ----
  const screen = await openPage(live.browser, 'screen', { viewport: { width: 1920, height: 1080 } });
  const { page } = screen;
  await page.goto(`${base}/t/${t.id}/screen?cycle=4`);
  await viewShown(page, 'pairings');
  await page.evaluate(() => { /** @type {any} */ (window).__sameDocument = true; });
  await assert.doesNotReject(page.waitForSelector('#hall-name:text("St. Mary\'s Hall Open")'));
  await waitFor(async () => (await hallRows(page))[2]?.where === 'relayed live', 'table 3 relayed', { timeout: 15000, every: 200 });
  const rows = await hallRows(page);
  assert.deepEqual(rows.map((r) => [r.table, r.first, r.second, r.where]),
    round1.pairings.map((/** @type {any} */ p) => [p.table, nameOfId(p.first), nameOfId(p.second), where(p)]),
    'every table, the player who moves first on the left');
  const clock = await page.textContent('#hall-countdown');
  const m = /^(\d+):(\d\d)$/.exec((clock || '').trim());
  assert.ok(m && Number(m[1]) >= 40 && Number(m[1]) <= 45, `the round's countdown: ${clock}`);
  assert.match(await page.textContent('#hall-round') || '', /Round 1 of 3/);
  await assertFits(page, 36, '1920x1080 pairings');
  await page.screenshot({ path: path.join(ARTIFACTS, 'hall-screen-pairings.png'), animations: 'disabled' });
  await assertAccessible(page, 'the hall screen\'s tables');

  // The live tables as mini-boards: the relayed wooden board first, then the game played
  // online (the other wooden board sends no moves).
  await viewShown(page, 'live');
  const boards = await page.$$eval('[data-view="live"] .mini[data-game-id]', (els) => els.map((el) => Number(el.getAttribute('data-table'))));
  assert.deepEqual(boards, [3, 1]);
  await assertFits(page, 0, '1920x1080 live tables');
  await assertAccessible(page, 'the hall screen\'s live tables');
  await page.screenshot({ path: path.join(ARTIFACTS, 'hall-screen-live.png'), animations: 'disabled' });

  // Then the standings: every player, in the server's order.
  await viewShown(page, 'standings');
  const shownStandings = await page.$$eval('[data-hall-player]', (els) => els.map((el) => el.getAttribute('data-hall-player')));
  assert.deepEqual(shownStandings, snap1.standings.map((/** @type {any} */ s) => s.player_id));
  await assertFits(page, 30, '1920x1080 standings');
  await assertAccessible(page, 'the hall screen\'s standings');
  await page.screenshot({ path: path.join(ARTIFACTS, 'hall-screen-standings.png'), animations: 'disabled' });

  // ---- the wooden board's sheet comes in, then the round ends: the results, no reload ----
  // One player enters the result on their phone (it waits for the other's initials)...
  const board = round1.pairings[1];
  await call(base, token(board.first), 'POST', `/api/tournaments/${t.id}/tables/1/2/sheet`, {
    action: 'enter', winner: board.first, victory: 'no-move', seeds: { first: 41, second: 23 },
  });
  await viewShown(page, 'pairings');
  await waitFor(async () => (await hallRows(page))[1]?.result === 'to initial', 'table 2\'s entry waiting for initials', { timeout: 20000, every: 250 });
  // ...and the other initials it: the sheet.
  await call(base, token(board.second), 'POST', `/api/tournaments/${t.id}/tables/1/2/sheet`, { action: 'confirm' });
  await waitFor(async () => (await hallRows(page))[1]?.result === '1 – 0', 'table 2\'s sheet on the screen', { timeout: 20000, every: 250 });
  // The guide's picture: the round running, the wooden board's result in.
  await page.screenshot({ path: path.join(ARTIFACTS, 'hall-screen.png'), animations: 'disabled' });
  if (RENEW_DOCS) copyFileSync(path.join(ARTIFACTS, 'hall-screen.png'), path.join(DOCS, 'hall-screen.png'));
  await call(base, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds/1/end`);
  await viewShown(page, 'pairings');
  // The relayed game, decided on its last position, proposes its table's sheet: to initial.
  await waitFor(async () => (await hallRows(page))[2]?.result === 'to initial', 'the relayed table\'s proposed sheet', { timeout: 30000, every: 250 });
  const relayed = round1.pairings[2];
  for (const who of [relayed.first, relayed.second]) {
    await call(base, token(who), 'POST', `/api/tournaments/${t.id}/tables/1/3/sheet`, { action: 'confirm' });
  }
  await waitFor(async () => {
    const now = await hallRows(page);
    return now.length === 3 && now.every((r) => /^[\d½]+ – [\d½]+$/.test(r.result));
  }, 'every table\'s result on the screen', { timeout: 30000, every: 250 });
  await waitFor(async () => (await snapshot(base, t.id, t.director.token)).rounds[0].status === 'finished', 'round 1 finished');
  await page.waitForSelector('#hall-countdown:text("Round 1 is over")');

  // A sheet corrected by the director: the table's result and the standings change.
  const table1 = round1.pairings[0];
  const before = (await hallRows(page))[0].result;
  await call(base, t.director.token, 'POST', `/api/tournaments/${t.id}/sheets/${table1.game_id}`, {
    action: 'correct', result: { result: 'win', winner: 's', victory: 'adjudicated' }, reason: 'recounted: south had more seeds',
  });
  await waitFor(async () => (await hallRows(page))[0]?.result === '1 – 0', `table 1's corrected result (was ${before})`, { timeout: 20000, every: 250 });
  const snap2 = await snapshot(base, t.id, t.director.token);
  await viewShown(page, 'standings');
  await waitFor(async () => {
    const shown = await page.$$eval('[data-hall-player]', (els) => els.map((el) => [el.getAttribute('data-hall-player'), el.querySelector('[data-hall-points]')?.textContent]));
    return JSON.stringify(shown) === JSON.stringify(snap2.standings.map((/** @type {any} */ s) => [s.player_id, s.points === 0.5 ? '½' : s.points === 1.5 ? '1½' : String(s.points)]));
  }, 'the standings after the correction', { timeout: 20000, every: 250 });
  assert.equal(shownStandings.length, 6);

  // ---- round 2 paired: its tables at once, still the same page ----
  const round2 = await call(base, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds`);
  await page.waitForSelector('#hall-round:text("Round 2 of 3")');
  await viewShown(page, 'pairings');
  await waitFor(async () => {
    const now = await hallRows(page);
    return JSON.stringify(now.map((r) => [r.first, r.second])) === JSON.stringify(round2.pairings.map((/** @type {any} */ p) => [nameOfId(p.first), nameOfId(p.second)]));
  }, 'round 2\'s tables on the screen', { timeout: 20000, every: 250 });
  assert.match(await page.textContent('#hall-countdown') || '', /Starting soon/);
  // Started: the countdown runs.
  await call(base, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds/2/start`);
  await page.waitForFunction(() => /^4\d:\d\d$/.test(document.getElementById('hall-countdown')?.textContent || ''));
  await viewShown(page, 'pairings');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).__sameDocument), true, 'no reload');
  await assertFits(page, 36, '1920x1080 round 2');
  await page.screenshot({ path: path.join(ARTIFACTS, 'hall-screen-round2.png'), animations: 'disabled' });

  // The same page on a 1280x720 screen: everything still fits.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.waitForTimeout(600);
  await viewShown(page, 'pairings');
  await assertFits(page, 24, '1280x720 pairings');
  await page.screenshot({ path: path.join(ARTIFACTS, 'hall-screen-720.png'), animations: 'disabled' });
  await viewShown(page, 'standings');
  await assertFits(page, 20, '1280x720 standings');

  // ---- the print view: round 1's score sheets, as the director prints them ----
  const director = await openPage(live.browser, 'director', { viewport: { width: 794, height: 1123 } });
  await signInContext(director.context, base, t.director);
  const dp = director.page;
  await dp.goto(`${base}/t/${t.id}`);
  const printLink = dp.locator('[data-print-sheets]');
  await printLink.waitFor({ state: 'visible' });
  assert.equal(await printLink.getAttribute('href'), `/t/${t.id}/print`);
  assert.equal(await dp.locator('[data-hall-screen]').getAttribute('href'), `/t/${t.id}/screen`);

  await dp.goto(`${base}/t/${t.id}/print?round=1`);
  await dp.waitForSelector('.score-sheet');
  await dp.waitForSelector('#print-button');
  await assertAccessible(dp, 'the score sheets');
  const sheets = await dp.$$eval('.score-sheet', (els) => els.map((el) => ({
    table: Number(el.getAttribute('data-sheet-table')),
    first: el.querySelector('[data-sheet-first]')?.textContent,
    second: el.querySelector('[data-sheet-second]')?.textContent,
    round: el.querySelector('[data-sheet-round]')?.textContent,
    qr: Boolean(el.querySelector('svg[data-sheet-qr]')),
    placeholder: Boolean(el.querySelector('[data-qr-placeholder]')),
    victories: [...el.querySelectorAll('[data-victory]')].map((v) => v.getAttribute('data-victory')),
    url: el.querySelector('[data-sheet-url]')?.textContent,
  })));
  assert.deepEqual(sheets.map((s) => [s.table, s.first, s.second, s.round]),
    round1.pairings.map((/** @type {any} */ p) => [p.table, nameOfId(p.first), nameOfId(p.second), '1']), 'one sheet per table, the first mover first');
  for (const s of sheets) {
    assert.deepEqual(s.victories, ['no-move', 'emitwe-ebiri', 'akakyala', 'akawumbi', 'resigned']);
    assert.match(s.url || '', new RegExp(`/t/${t.id}/sheet/1/${s.table}$`));
    assert.ok(s.qr && !s.placeholder, `table ${s.table}: the QR code`);
  }
  // Printed: one page a sheet, nothing else on paper.
  const cdp = await director.context.newCDPSession(dp);
  await cdp.send('Emulation.setEmulatedMedia', { media: 'print' });
  assert.equal(await dp.locator('#print-button').isVisible(), false, 'the Print button is not printed');
  // The wooden board's sheet, for the guide.
  await dp.locator('.score-sheet[data-sheet-table="2"]').screenshot({ path: path.join(ARTIFACTS, 'score-sheet.png') });
  if (RENEW_DOCS) copyFileSync(path.join(ARTIFACTS, 'score-sheet.png'), path.join(DOCS, 'score-sheet.png'));
  await cdp.send('Emulation.setEmulatedMedia', { media: '' });
  const pdf = (await dp.pdf({ format: 'A4' })).toString('latin1');
  const pages = (pdf.match(/\/Type\s*\/Page(?![s\w])/g) || []).length;
  assert.equal(pages, 3, 'three sheets, three printed pages');

  // The pairings for the wall: the latest round, with the tournament's QR code.
  await dp.click('[data-wall-link]');
  await dp.waitForSelector('.wall-sheet');
  await assertAccessible(dp, 'the pairings for the wall');
  const wall = await dp.$$eval('[data-wall-table]', (els) => els.map((el) => [...el.querySelectorAll('td')].map((td) => td.textContent)));
  assert.deepEqual(wall.map((r) => r.slice(0, 3)),
    round2.pairings.map((/** @type {any} */ p) => [String(p.table), nameOfId(p.first), nameOfId(p.second)]));
  assert.equal(await dp.locator('svg[data-wall-qr] path').count() > 0, true, 'the tournament\'s QR code');
  await cdp.send('Emulation.setEmulatedMedia', { media: 'print' });
  await dp.screenshot({ path: path.join(ARTIFACTS, 'wall-pairings.png'), fullPage: true });

  // Nothing went wrong in either page.
  assert.deepEqual([...screen.problems, ...director.problems], []);
  await screen.context.close();
  await director.context.close();
});

/** A port free on 127.0.0.1 now (for a server restarted at the same address). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

test('the hall screen carries on through a server restart', { timeout: 180000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'omweso-hall-'));
  const database = `sqlite://${path.join(dir, 'hall.db')}?mode=rwc`;
  const addr = `127.0.0.1:${await freePort()}`;
  let server = await startServer({ addr, database });
  try {
    const base = server.url;
    const t = await createTournament(base, {
      name: 'Restart Cup', rounds: 2, round_minutes: 30,
      time_control: { preset: 'tournament', referee_seconds: null, disconnect_grace_seconds: 600 },
    }, 'Mukasa');
    await joinPlayers(base, t.id, 4, { names: NAMES.slice(0, 4) });
    const round = await pairAndStart(base, t.id, t.director.token);
    const screen = await openPage(live.browser, 'restart', { viewport: { width: 1280, height: 720 } });
    const { page } = screen;
    await page.goto(`${base}/t/${t.id}/screen?cycle=4`);
    await viewShown(page, 'pairings');
    await page.evaluate(() => { /** @type {any} */ (window).__sameDocument = true; });

    await server.stop();
    await page.waitForSelector('#hall-connection:text("Reconnecting")');
    server = await startServer({ addr, database });
    await page.waitForFunction(() => /** @type {any} */ (window).__omwesoHall.connected(), undefined, { timeout: 30000 });
    await page.waitForSelector('#hall-connection', { state: 'hidden' });

    // The round ended on the restarted server: its results on the same page.
    await call(base, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds/1/end`);
    await viewShown(page, 'pairings');
    await waitFor(async () => {
      const rows = await hallRows(page);
      return rows.length === round.pairings.length && rows.every((r) => /^[\d½]+ – [\d½]+$/.test(r.result));
    }, 'the results after the restart', { timeout: 30000, every: 250 });
    assert.equal(await page.evaluate(() => /** @type {any} */ (window).__sameDocument), true, 'no reload');
    // The browser's own reports of the socket refused while the server was down are expected.
    const outage = (/** @type {string} */ line) => /WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/.test(line);
    assert.deepEqual(screen.problems.filter((line) => !outage(line)), []);
    await screen.context.close();
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
