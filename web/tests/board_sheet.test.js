// A tournament played over the board, through the pages (docs/rules.md#57-over-the-board-play-and-relays):
// two players on phones (360×640, each its own browser and session) open their table's
// sheet page; one enters the result in a few taps, the other sees it and initials it; the
// tournament page then shows the table's result and the standings changed. Then entries
// that differ (Omweso's phones offer no draw): the director, who set the table to be played over the board in the console
// before starting the round, sees both entries side by side and enters the result; the
// sheet is made. Real server, headless Chromium, the real CSP, default settings; any
// console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage } from './helpers/browser.js';
import { call, waitFor } from './helpers/protocol.js';
import { createTournament, joinPlayers, signInContext, snapshot } from './helpers/tournament.js';
import { assertAccessible } from './helpers/axe.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '..', 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** A small phone, held by a wooden board. */
const SMALL_PHONE = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

const live = serverAndBrowser();

/**
 * A phone signed in as `who`, recording every console problem.
 * @param {string} label @param {{token: string, player_id: string, name: string}} who @param {any} [options]
 */
async function phoneOf(label, who, options = SMALL_PHONE) {
  const opened = await openPage(live.browser, label, options);
  await signInContext(opened.context, live.server.url, who);
  return opened;
}

/** The stage the sheet page shows. @param {import('playwright-core').Page} page @param {string} stage */
async function stageIs(page, stage) {
  await page.waitForFunction((s) => /** @type {any} */ (window).__omwesoSheet?.stage() === s, stage, { timeout: 15000 });
}

/**
 * Every tap target of the entry form is at least 48 px high and wide enough, and nothing
 * overflows the phone's width.
 * @param {import('playwright-core').Page} page
 */
async function assertPhoneFriendly(page) {
  const found = await page.evaluate(() => {
    const small = [...document.querySelectorAll('.sheet-page button, .sheet-page input')]
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.height < 48 || r.width < 48))
      .map(({ el, r }) => `${el.outerHTML.slice(0, 80)} ${Math.round(r.width)}×${Math.round(r.height)}`);
    return { small, scroll: document.documentElement.scrollWidth, width: window.innerWidth };
  });
  assert.deepEqual(found.small, [], 'every tap target is at least 48 px');
  assert.ok(found.scroll <= found.width, `nothing scrolls sideways (${found.scroll} > ${found.width})`);
}

/** A player's points in the standings the page shows. @param {import('playwright-core').Page} page @param {string} id */
function pointsShown(page, id) {
  return page.$eval(`#standings tr[data-player-id="${id}"] [data-col="points"]`, (el) => (el.textContent || '').trim());
}

test('two phones: one enters the result at the board, the other initials it; the standings change', async () => {
  const { server } = live;
  const { id, director } = await createTournament(server.url, { played_at: 'board' });
  const players = await joinPlayers(server.url, id, 4, { names: ['Kato', 'Nakato', 'Apio', 'Okello'] });
  const paired = await call(server.url, director.token, 'POST', `/api/tournaments/${id}/rounds`);
  assert.ok(paired.pairings.every((/** @type {any} */ p) => p.played_at === 'board'), 'a tournament played over the board pairs board tables');
  await call(server.url, director.token, 'POST', `/api/tournaments/${id}/rounds/1/start`);
  const snap = await snapshot(server.url, id, director.token);
  const table = snap.rounds[0].pairings.find((/** @type {any} */ p) => p.table === 1);
  const first = players.find((p) => p.player_id === table.first);
  const second = players.find((p) => p.player_id === table.second);
  assert.ok(first && second);
  const sheetUrl = `${server.url}/t/${id}/sheet/1/1`;

  const a = await phoneOf('first', first);
  const b = await phoneOf('second', second);
  try {
    // The first player enters the result: who won, how, the seeds, Send.
    await a.page.goto(sheetUrl);
    await stageIs(a.page, 'enter');
    await assertPhoneFriendly(a.page);
    await a.page.tap(`[data-entry-winner="${first.player_id}"]`);
    await a.page.tap('[data-entry-victory="no-move"]');
    await a.page.fill('[data-entry-seeds="first"]', '39');
    await a.page.tap('[data-entry-form] .step[aria-label^="One more for"]');
    await a.page.fill('[data-entry-seeds="second"]', '24');
    assert.equal(await a.page.inputValue('[data-entry-seeds="first"]'), '40', 'the + button adds one');
    await assertPhoneFriendly(a.page);
    await assertAccessible(a.page, 'the sheet page, an entry filled in');
    await a.page.screenshot({ path: path.join(ARTIFACTS, 'board-sheet-entry.png'), fullPage: true });
    await a.page.tap('[data-entry-send]');
    await stageIs(a.page, 'waiting-other');
    assert.match(await a.page.textContent('[data-sheet-state="waiting-other"]') || '', new RegExp(`Waiting for ${second.name}'s initials`));

    // The other player opens the same page: the entry standing, to initial.
    await b.page.goto(sheetUrl);
    await stageIs(b.page, 'to-initial');
    const shown = await b.page.textContent('[data-entry-result]');
    assert.equal(shown, `${first.name} won (no move) · seeds captured: ${first.name} 40, ${second.name} 24`);
    assert.match(await b.page.textContent('[data-sheet-state="to-initial"]') || '', new RegExp(`Entered by ${first.name}`));
    await assertPhoneFriendly(b.page);
    await assertAccessible(b.page, 'the sheet page, an entry to initial');
    await b.page.screenshot({ path: path.join(ARTIFACTS, 'board-sheet-initial.png'), fullPage: true });
    await b.page.tap('[data-sheet-confirm]');
    await stageIs(b.page, 'made');
    // The first player's page follows live (the socket's round event).
    await stageIs(a.page, 'made');
    assert.equal(await a.page.textContent('[data-sheet-made-result]'), `${first.name} won (no move) · 1–0`);
    // The seeds are seeds, the points points: each said as what it is.
    assert.deepEqual(await a.page.$$eval('.sheet-made p:not([data-sheet-made-how])', (ps) => ps.map((el) => el.textContent)), [
      'The sheet is made.', `${first.name} won (no move) · 1–0`,
      `Seeds captured: ${first.name} 40, ${second.name} 24.`, 'Your points for this game: 1.']);
    assert.match(await a.page.textContent('[data-sheet-made-how]') || '', new RegExp(`Entered by ${first.name}, initialled by ${second.name}\\. Entered at the board\\.`));

    // The tournament page: the table marked, its result, the standings.
    await b.page.goto(`${server.url}/t/${id}`);
    const mini = b.page.locator('[data-mini][data-table="1"]');
    await mini.locator('[data-mini-where]').waitFor();
    assert.equal(await mini.locator('[data-mini-where]').textContent(), 'At the board');
    await waitFor(async () => /entered at the board/.test(await mini.locator('[data-mini-status]').textContent() || ''), 'the table\'s result on the tournament page');
    assert.equal(await mini.locator('[data-mini-status]').textContent(), `${first.name} won: 1–0 · entered at the board`);
    // The table's link is its sheet page, for its players.
    assert.equal(await mini.locator('[data-open-table]').getAttribute('href'), `/t/${id}/sheet/1/1`);
    await b.page.waitForSelector('#standings tr[data-player-id]');
    assert.equal(await pointsShown(b.page, first.player_id), '1');
    assert.equal(await pointsShown(b.page, second.player_id), '0');
    const after = await snapshot(server.url, id, director.token);
    const made = after.rounds[0].pairings.find((/** @type {any} */ p) => p.table === 1).sheet;
    assert.equal(made.status, 'confirmed');
    assert.equal(made.over_the_board, true);
    assert.deepEqual(made.seeds, { first: 40, second: 24 });
    // The other table, a spectator's view: not linked (nothing to enter for them), waiting.
    const other = b.page.locator('[data-mini][data-table="2"]');
    assert.equal(await other.locator('[data-open-table]').count(), 0);
    assert.equal(await other.locator('[data-mini-status]').textContent(), 'Played at the board');

    for (const p of [a, b]) assert.deepEqual(p.problems, [], `the ${p.label} phone logged problems:\n${p.problems.join('\n')}`);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

test('entries that differ wait for the director, who set the table at the board and enters the result', async () => {
  const { server } = live;
  // Played online by default: the director moves the table to the board in the console.
  const { id, director } = await createTournament(server.url, { name: 'Hall Open' });
  const players = await joinPlayers(server.url, id, 2, { names: ['Mukasa', 'Namubiru'] });
  const desk = await openPage(live.browser, 'director');
  await signInContext(desk.context, server.url, director);
  const [x, y] = players;
  const a = await phoneOf('first', x);
  const b = await phoneOf('second', y);
  try {
    const page = desk.page;
    await page.goto(`${server.url}/t/${id}`);
    await page.click('[data-pair-next]');
    const toggle = page.locator('[data-played-at-table="1"]');
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute('data-played-at'), 'online');
    await toggle.click();
    await page.waitForSelector('[data-played-at-table="1"][data-played-at="board"]');
    assert.equal(await page.getAttribute('[data-played-at-table="1"]', 'aria-pressed'), 'true');
    await assertAccessible(page, 'the console, a paired round\'s table at the board', { include: ['#director-console'] });
    await page.click('[data-start-round="1"]');
    await page.waitForSelector('[data-sheet-row][data-table="1"][data-played-at="board"]');
    const snap = await snapshot(server.url, id, director.token);
    const table = snap.rounds[0].pairings[0];
    assert.equal(table.played_at, 'board');
    const first = players.find((p) => p.player_id === table.first);
    const second = players.find((p) => p.player_id === table.second);
    assert.ok(first && second);
    const [pa, pb] = first === x ? [a, b] : [b, a];
    const sheetUrl = `${server.url}/t/${id}/sheet/1/1`;

    // The first player says they won by emitwe-ebiri. Omweso has no draws: the phone
    // offers none (docs/rules.md 1.5).
    await pa.page.goto(sheetUrl);
    await stageIs(pa.page, 'enter');
    assert.deepEqual(await pa.page.$$eval('[data-entry-winner]', (els) => els.map((el) => el.getAttribute('data-entry-winner'))),
      [first.player_id, second.player_id]);
    assert.equal(await pa.page.textContent('[data-entry-form] legend'), '1. Who won? (Omweso has no draws)');
    await pa.page.tap(`[data-entry-winner="${first.player_id}"]`);
    await pa.page.tap('[data-entry-victory="emitwe-ebiri"]');
    await pa.page.fill('[data-entry-seeds="first"]', '30');
    await pa.page.fill('[data-entry-seeds="second"]', '40');
    // 70 seeds: more than a game has, said before anything is sent.
    await pa.page.tap('[data-entry-send]');
    assert.equal(await pa.page.textContent('[data-entry-error]'), '30 and 40 add up to 70, more than the 64 a game has.');
    await pa.page.fill('[data-entry-seeds="second"]', '20');
    await pa.page.tap('[data-entry-send]');
    await stageIs(pa.page, 'waiting-other');

    // The second player says it is wrong, and enters their own: they won, the first resigned.
    await pb.page.goto(sheetUrl);
    await stageIs(pb.page, 'to-initial');
    await pb.page.tap('[data-sheet-wrong]');
    await pb.page.tap('[data-sheet-own]');
    await pb.page.tap(`[data-entry-winner="${second.player_id}"]`);
    await pb.page.tap('[data-entry-victory="resigned"]');
    await pb.page.fill('[data-entry-seeds="first"]', '12');
    await pb.page.fill('[data-entry-seeds="second"]', '15');
    await pb.page.tap('[data-entry-send]');
    await stageIs(pb.page, 'director');
    await stageIs(pa.page, 'director');
    assert.equal(await pa.page.locator('[data-sheet-state="director"] .entry-card').count(), 2, 'both entries shown to the players');
    // A player cannot settle it now: the refusal is said in the server's words.
    assert.equal(await pb.page.locator('[data-sheet-confirm]').count(), 0);

    // The console: both entries side by side, with who entered what.
    const row = page.locator('[data-sheet-row][data-table="1"]');
    await waitFor(async () => (await row.getAttribute('data-status')) === 'waiting-director', 'the console to show the table waiting for the director');
    const entries = row.locator('[data-board-entry-by]');
    assert.equal(await entries.count(), 2);
    assert.equal(await row.locator(`[data-board-entry-by="${first.player_id}"]`).textContent(),
      `${first.name} entered${first.name} won (emitwe-ebiri) · seeds captured: ${first.name} 30, ${second.name} 20initialled by ${first.name}`);
    assert.equal(await row.locator(`[data-board-entry-by="${second.player_id}"]`).textContent(),
      `${second.name} entered${second.name} won (resignation) · seeds captured: ${first.name} 12, ${second.name} 15initialled by ${second.name}`);
    assert.match(await page.textContent('#director-status') || '', /table 1 waits for you to settle the sheet/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'board-sheet-director.png'), fullPage: true });
    await assertAccessible(page, 'the console, a board table waiting for the director', { include: ['#director-console'] });

    // The director enters the result (the first's win, on the seeds they counted): the
    // sheet is made. Their form's only draw is an adjudication's.
    await page.click('[data-board-enter="1"]');
    const form = page.locator('[data-board-enter-form="1"]');
    await form.waitFor();
    assert.deepEqual(await form.locator('[data-entry-winner]').allTextContents(), [first.name, second.name, 'Draw (adjudicated)']);
    await form.locator(`[data-entry-winner="${first.player_id}"]`).click();
    await form.locator('[data-entry-victory="emitwe-ebiri"]').click();
    await form.locator('[data-entry-seeds="first"]').fill('32');
    await form.locator('[data-entry-seeds="second"]').fill('20');
    await form.locator('[data-entry-send]').click();
    await waitFor(async () => (await row.getAttribute('data-status')) === 'confirmed', 'the sheet made in the console');
    assert.equal(await row.locator('[data-result]').textContent(), `${first.name} won (emitwe-ebiri) · 2–0`);
    assert.equal(await row.locator('[data-entered-at-board]').textContent(), 'entered at the board · seeds 32–20');
    await stageIs(pa.page, 'made');
    await stageIs(pb.page, 'made');
    assert.equal(await pb.page.textContent('[data-sheet-made-result]'), `${first.name} won (emitwe-ebiri) · 2–0`);
    assert.match(await pb.page.textContent('[data-sheet-made-how]') || '', /^Entered by the director\./);
    const after = await snapshot(server.url, id, director.token);
    const made = after.rounds[0].pairings[0].sheet;
    assert.equal(made.first_result, 'won');
    assert.deepEqual(made.seeds, { first: 32, second: 20 });
    assert.deepEqual(after.standings.map((/** @type {any} */ s) => s.points), [2, 0]);

    // A correction of a board sheet carries its seeds too; its only draw in Omweso is an
    // adjudication's.
    await row.locator('[data-correct]').click();
    assert.equal(await page.textContent('#correct-result option[value="draw"]'), 'Draw on adjudication (½ each)');
    await page.selectOption('#correct-result', 'second');
    await page.selectOption('#correct-victory', 'resigned');
    assert.equal(await page.inputValue('#correct-seeds-first'), '32');
    await page.fill('#correct-seeds-first', '12');
    await page.fill('#correct-seeds-second', '15');
    await page.fill('#correct-reason', 'the players agree the first resigned');
    await page.click('[data-correct-submit]');
    await waitFor(async () => (await row.getAttribute('data-status')) === 'corrected', 'the board sheet corrected');
    assert.equal(await row.locator('[data-entered-at-board]').textContent(), 'entered at the board · seeds 12–15');
    const corrected = (await snapshot(server.url, id, director.token)).rounds[0].pairings[0].sheet;
    assert.deepEqual(corrected.seeds, { first: 12, second: 15 });
    assert.equal(corrected.second_result, 'won');
    await stageIs(pb.page, 'made');
    await waitFor(async () => /^Corrected by the director\./.test(await pb.page.textContent('[data-sheet-made-how]') || ''), 'the phone showing the correction');

    for (const p of [desk, a, b]) assert.deepEqual(p.problems, [], `the ${p.label} page logged problems:\n${p.problems.join('\n')}`);
  } finally {
    await desk.context.close();
    await a.context.close();
    await b.context.close();
  }
});

test('a phone that is not one of the table\'s players is told so, and how to become one', async () => {
  const { server } = live;
  const { id, director } = await createTournament(server.url, { played_at: 'board' });
  await joinPlayers(server.url, id, 2, { names: ['Ssali', 'Nabirye'] });
  await call(server.url, director.token, 'POST', `/api/tournaments/${id}/rounds`);
  await call(server.url, director.token, 'POST', `/api/tournaments/${id}/rounds/1/start`);
  // A phone that never came here: the page makes it a nameless guest, silently.
  const stranger = await openPage(live.browser, 'stranger', SMALL_PHONE);
  try {
    await stranger.page.goto(`${server.url}/t/${id}/sheet/1/1`);
    await stageIs(stranger.page, 'enter');
    const note = stranger.page.locator('[data-sheet-state="not-player"]');
    await note.waitFor();
    assert.match(await note.textContent() || '', /This phone is not Ssali or Nabirye/);
    assert.equal(await stranger.page.locator('[data-entry-form]').count(), 0, 'no form for a stranger');
    assert.equal(await stranger.page.getAttribute('[data-sheet-link]', 'href'), `/link?next=${encodeURIComponent(`/t/${id}/sheet/1/1`)}`);
    assert.deepEqual(stranger.problems, [], `the page logged problems:\n${stranger.problems.join('\n')}`);
  } finally {
    await stranger.context.close();
  }
});

test('the creation form: "Played: over the board" sets the tournament to be played at the board', async () => {
  const { server } = live;
  const desk = await openPage(live.browser, 'director');
  try {
    const page = desk.page;
    await page.goto(`${server.url}/t/new`);
    await page.fill('#name-input', 'Namuli');
    await page.click('#name-submit');
    await page.waitForSelector('[data-me="Namuli"]');
    assert.equal(await page.inputValue('#t-played-at'), 'online', 'online by default');
    await page.fill('#t-name', 'Hall Swiss');
    await page.selectOption('#t-played-at', 'board');
    await page.click('#create-tournament');
    await page.waitForURL(/\/t\/[0-9a-f-]{36}/);
    const id = String(/\/t\/([0-9a-f-]{36})/.exec(page.url())?.[1]);
    const token = String((await desk.context.cookies()).find((c) => c.name === 'omweso_session')?.value);
    const snap = await snapshot(server.url, id, token);
    assert.equal(snap.settings.played_at, 'board');
    assert.deepEqual(desk.problems, [], `the page logged problems:\n${desk.problems.join('\n')}`);
  } finally {
    await desk.context.close();
  }
});

test('the console: a player added without a device, a board table\'s relay invited (code, link, QR code), relayed by the director, removed', async () => {
  const { server } = live;
  const { id, director } = await createTournament(server.url, { played_at: 'board', name: 'Club Night' });
  await joinPlayers(server.url, id, 1, { names: ['Wasswa'] });
  const desk = await openPage(live.browser, 'director');
  await signInContext(desk.context, server.url, director);
  try {
    const page = desk.page;
    await page.goto(`${server.url}/t/${id}`);
    // A person with no phone, added by name: marked as such.
    await page.fill('#director-add-name', 'Babirye Sarah');
    await page.click('[data-add-player-submit]');
    const added = page.locator('[data-player-row][data-added-by-director="true"]');
    await added.waitFor();
    assert.match(await added.textContent() || '', /Babirye Sarah.*added without a device/);
    const snap = await snapshot(server.url, id, director.token);
    const person = snap.players.find((/** @type {any} */ p) => p.name === 'Babirye Sarah');
    assert.equal(person.added_by_director, true);
    // "Give a new device" works for them: a code and its QR code.
    await page.click(`[data-device-code-for="${person.player_id}"]`);
    await page.waitForSelector(`[data-device-code="${person.player_id}"] .link-code-qr svg`);
    await assertAccessible(page, 'the console, a player added without a device', { include: ['#director-console'] });

    await page.click('[data-pair-next]');
    // Every table of a tournament played over the board starts at the board.
    await page.waitForSelector('[data-played-at-table="1"][data-played-at="board"]');
    await page.click('[data-relay-open="1"]');
    await page.click('[data-relay-invite="1"]');
    const invite = page.locator('[data-relay-code="1"]');
    await invite.locator('.link-code-qr svg').waitFor();
    const code = await invite.locator('[data-relay-code-text]').textContent();
    assert.match(code || '', /^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    assert.match(await invite.locator('[data-relay-url]').getAttribute('href') || '', new RegExp(`/t/${id}/relay/1/1#code=[A-Z0-9]{8}$`));
    // It is good for 12 hours, into the next day perhaps: its end says the day too.
    assert.match(await invite.locator('[data-relay-until]').textContent() || '', /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    assert.match(await invite.textContent() || '', /It works once, until \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}; a new invite replaces it\./);
    await assertAccessible(page, 'the console, a relay invite shown', { include: ['#director-console'] });
    await page.click('[data-key="relay-invite-close"]');
    await page.click('[data-relay-open="1"]');
    await page.click('[data-relay-self="1"]');
    await waitFor(async () => /relayed by Director/.test(await page.textContent('[data-relay-state="1"]') || ''), 'the director named as the relay');
    await page.click('[data-relay-remove="1"]');
    await waitFor(async () => (await page.textContent('[data-relay-state="1"]')) === 'no relay', 'the relay removed');
    // The whole round moved online, then back to the board.
    await page.click('[data-played-at-round="online"]');
    await page.waitForSelector('[data-played-at-table="1"][data-played-at="online"]');
    await page.click('[data-played-at-round="board"]');
    await page.waitForSelector('[data-played-at-table="1"][data-played-at="board"]');
    assert.deepEqual(desk.problems, [], `the console logged problems:\n${desk.problems.join('\n')}`);
  } finally {
    await desk.context.close();
  }
});

test('a player without a device: the other is told the director initials it, and the director does, in the console', async () => {
  const { server } = live;
  const { id, director } = await createTournament(server.url, { played_at: 'board', name: 'Phoneless' });
  const [wasswa] = await joinPlayers(server.url, id, 1, { names: ['Wasswa'] });
  const okello = await call(server.url, director.token, 'POST', `/api/tournaments/${id}/players`, { name: 'Okello' });
  await call(server.url, director.token, 'POST', `/api/tournaments/${id}/rounds`);
  const round = await call(server.url, director.token, 'POST', `/api/tournaments/${id}/rounds/1/start`);
  const table = round.pairings[0];
  const phone = await phoneOf('Wasswa', wasswa);
  const desk = await openPage(live.browser, 'director');
  await signInContext(desk.context, server.url, director);
  try {
    // Wasswa's phone does not say Okello initials it "on their phone": the director does.
    await phone.page.goto(`${server.url}/t/${id}/sheet/1/1`);
    await stageIs(phone.page, 'enter');
    assert.equal(await phone.page.textContent('[data-sheet-state="enter"]'),
      'After the game: enter the result. Okello has no phone: the director then initials it for them.');
    await phone.page.tap(`[data-entry-winner="${wasswa.player_id}"]`);
    await phone.page.tap('[data-entry-victory="no-move"]');
    await phone.page.fill('[data-entry-seeds="first"]', table.first === wasswa.player_id ? '40' : '20');
    await phone.page.fill('[data-entry-seeds="second"]', table.first === wasswa.player_id ? '20' : '40');
    await phone.page.tap('[data-entry-send]');
    await stageIs(phone.page, 'waiting-other');
    assert.equal(await phone.page.textContent('[data-sheet-state="waiting-other"] .sheet-headline'), 'Waiting for the director to initial it for Okello.');

    // The console: the entry shown, waiting for the director's initials for Okello.
    const page = desk.page;
    await page.goto(`${server.url}/t/${id}`);
    const row = page.locator('[data-sheet-row][data-table="1"]');
    await waitFor(async () => (await row.getAttribute('data-status')) === 'waiting-initials', 'the entry in the console');
    assert.equal(await row.locator('[data-sheet-status]').textContent(), 'waiting for your initials for Okello (no device)');
    assert.match(await page.textContent('#director-status') || '', /table 1 waits for your initials for a player without a device/);
    const initial = row.locator(`[data-board-confirm-for="${okello.player_id}"]`);
    assert.equal(await initial.textContent(), 'Initial for Okello (accept Wasswa\'s entry)');
    await initial.click();
    await waitFor(async () => (await row.getAttribute('data-status')) === 'confirmed', 'the sheet made by the director\'s initials');
    await stageIs(phone.page, 'made');
    assert.equal(await phone.page.textContent('[data-sheet-made-how]'), 'Entered by Wasswa, initialled by the director Director for Okello. Entered at the board.');
    for (const p of [phone, desk]) assert.deepEqual(p.problems, [], `the ${p.label} page logged problems:\n${p.problems.join('\n')}`);
  } finally {
    await phone.context.close();
    await desk.context.close();
  }
});

test('a relayed board table is marked on the tournament page; at the round\'s end a board table without a sheet is listed for the director to adjudicate', async () => {
  const { server } = live;
  const { id, director } = await createTournament(server.url, { played_at: 'board', name: 'Late Night' });
  await joinPlayers(server.url, id, 4, { names: ['Lubega', 'Nansubuga', 'Kizza', 'Achan'] });
  await call(server.url, director.token, 'POST', `/api/tournaments/${id}/rounds`);
  await call(server.url, director.token, 'POST', `/api/tournaments/${id}/rounds/1/start`);
  const desk = await openPage(live.browser, 'director');
  await signInContext(desk.context, server.url, director);
  const watcher = await openPage(live.browser, 'watcher', SMALL_PHONE);
  try {
    const page = desk.page;
    await page.goto(`${server.url}/t/${id}`);
    // The director relays table 1 themselves: a game on the site follows its board.
    await page.click('[data-relay-open="1"]');
    await page.click('[data-relay-self="1"]');
    await waitFor(async () => /relayed by Director/.test(await page.textContent('[data-relay-state="1"]') || ''), 'the director named as the relay');
    const snap = await snapshot(server.url, id, director.token);
    const relayed = snap.rounds[0].pairings.find((/** @type {any} */ p) => p.table === 1);
    assert.equal(relayed.board.relayed, true);

    // A spectator: the relayed table is marked and opens its game; the other is at the board.
    await watcher.page.goto(`${server.url}/t/${id}`);
    const one = watcher.page.locator('[data-mini][data-table="1"]');
    await one.locator('[data-mini-where]').waitFor();
    assert.equal(await one.locator('[data-mini-where]').textContent(), 'At the board · relayed by Director');
    assert.equal(await one.locator('[data-open-table]').getAttribute('href'), `/g/${relayed.game_id}`);
    assert.equal(await watcher.page.locator('[data-mini][data-table="2"] [data-mini-where]').textContent(), 'At the board');

    // Time up (the director ends the round): table 2 has no sheet; the console says so first.
    page.once('dialog', (dialog) => { dialog.accept(); });
    await page.click('[data-end-round="1"]');
    await page.waitForSelector('[data-missing-table="1/2"]');
    assert.match(await page.textContent('[data-status-missing]') || '', /table.* 2.*played at the board.*no sheet\. Adjudicate/);
    const row = page.locator('[data-sheet-row][data-table="2"]');
    await waitFor(async () => (await row.getAttribute('data-status')) === 'missing', 'table 2 missing in the sheets');
    assert.equal(await row.locator('[data-board-missing]').textContent(), 'missing: adjudicate');
    await waitFor(async () => (await watcher.page.locator('[data-mini][data-table="2"] [data-mini-status]').textContent()) === 'Time is up: the director adjudicates',
      'the spectator told the director adjudicates table 2');

    // The director adjudicates: the second player's win on the seeds on each side, which
    // the form asks for (all 64 are on the board), not the seeds captured.
    const table2 = snap.rounds[0].pairings.find((/** @type {any} */ p) => p.table === 2);
    await page.click('[data-board-enter="2"]');
    const form = page.locator('[data-board-enter-form="2"]');
    await form.locator(`[data-entry-winner="${table2.second}"]`).click();
    await form.locator('[data-entry-victory="adjudicated"]').click();
    assert.equal(await form.locator('.entry-step:last-of-type legend').textContent(), '3. Seeds on each side of the board');
    await form.locator('[data-entry-seeds="first"]').fill('10');
    await form.locator('[data-entry-seeds="second"]').fill('50');
    await form.locator('[data-entry-send]').click();
    assert.equal(await form.locator('[data-entry-error]').textContent(), '10 and 50 add up to 60: a board holds 64 seeds. Count them again.');
    await form.locator('[data-entry-seeds="first"]').fill('14');
    await form.locator('[data-entry-send]').click();
    await waitFor(async () => (await row.getAttribute('data-status')) === 'confirmed', 'table 2\'s sheet made');
    assert.equal(await page.locator('[data-missing-table="1/2"]').count(), 0, 'no longer missing');
    assert.equal(await row.locator('[data-entered-at-board]').textContent(), 'adjudicated at the board · seeds on each side 14–50');
    const after = await snapshot(server.url, id, director.token);
    const sheet = after.rounds[0].pairings.find((/** @type {any} */ p) => p.table === 2).sheet;
    assert.equal(sheet.second_result, 'adjudicated-won');
    assert.equal(sheet.victory, 'adjudicated');
    assert.deepEqual(sheet.seeds_on_board, { first: 14, second: 50 });
    assert.deepEqual(sheet.seeds, { first: 0, second: 0 }, 'no captures counted');
    assert.match(await row.locator('[data-result]').textContent() || '', / won on adjudication · 0–1$/);
    for (const p of [desk, watcher]) assert.deepEqual(p.problems, [], `the ${p.label} page logged problems:\n${p.problems.join('\n')}`);
  } finally {
    await desk.context.close();
    await watcher.context.close();
  }
});

test('"It is wrong" with a reason: the director sees the dispute; a refusal is said in the server\'s words', async () => {
  const { server } = live;
  const { id, director } = await createTournament(server.url, { played_at: 'board', ruleset: 'oware', name: 'Oware Cup' });
  const players = await joinPlayers(server.url, id, 4, { names: ['Adjoa', 'Kwame', 'Esi', 'Kofi'] });
  await call(server.url, director.token, 'POST', `/api/tournaments/${id}/rounds`);
  const round = await call(server.url, director.token, 'POST', `/api/tournaments/${id}/rounds/1/start`);
  /** @param {number} n */
  const seated = (n) => {
    const t = round.pairings.find((/** @type {any} */ p) => p.table === n);
    const first = players.find((p) => p.player_id === t.first);
    const second = players.find((p) => p.player_id === t.second);
    assert.ok(first && second);
    return { first, second };
  };
  const { first, second } = seated(1);
  const a = await phoneOf('first', first);
  const b = await phoneOf('second', second);
  const desk = await openPage(live.browser, 'director');
  await signInContext(desk.context, server.url, director);
  const late = await phoneOf('late', seated(2).second);
  try {
    // Oware: won by captures, the pieces taken by each.
    await a.page.goto(`${server.url}/t/${id}/sheet/1/1`);
    await stageIs(a.page, 'enter');
    await a.page.tap(`[data-entry-winner="${first.player_id}"]`);
    assert.deepEqual(await a.page.$$eval('[data-entry-victory]', (els) => els.map((el) => el.getAttribute('data-entry-victory'))), ['captures', 'resigned']);
    await a.page.tap('[data-entry-victory="captures"]');
    assert.equal(await a.page.textContent('.entry-step:last-of-type legend'), '3. Pieces taken by each');
    await a.page.fill('[data-entry-seeds="first"]', '30');
    await a.page.fill('[data-entry-seeds="second"]', '19');
    await a.page.tap('[data-entry-send]');
    assert.equal(await a.page.textContent('[data-entry-error]'), '30 and 19 add up to 49, more than the 48 a game has.');
    await a.page.fill('[data-entry-seeds="second"]', '18');
    await a.page.tap('[data-entry-send]');
    await stageIs(a.page, 'waiting-other');

    // The other player disputes it, with a reason.
    await b.page.goto(`${server.url}/t/${id}/sheet/1/1`);
    await stageIs(b.page, 'to-initial');
    await b.page.tap('[data-sheet-wrong]');
    await b.page.tap('[data-sheet-dispute]');
    assert.equal(await b.page.textContent('[data-sheet-error]'), 'Say what is wrong: the director reads it.');
    await b.page.fill('#sheet-reason', 'I took 20, not 18');
    await b.page.tap('[data-sheet-dispute]');
    await stageIs(b.page, 'director');
    await stageIs(a.page, 'director');
    assert.equal(await a.page.textContent('[data-sheet-dispute-reason]'), `${second.name} says: “I took 20, not 18”`);

    // The console: the dispute, and the entry; the director accepts it as it stands.
    await desk.page.goto(`${server.url}/t/${id}`);
    const row = desk.page.locator('[data-sheet-row][data-table="1"]');
    await waitFor(async () => (await row.getAttribute('data-status')) === 'waiting-director', 'the dispute in the console');
    assert.match(await row.textContent() || '', new RegExp(`disputed by ${second.name}: “I took 20, not 18”`));
    assert.match(await row.textContent() || '', new RegExp(`${first.name} won \\(captures\\) · pieces taken: ${first.name} 30, ${second.name} 18`));
    await desk.page.click(`[data-board-accept="${first.player_id}"]`);
    await waitFor(async () => (await row.getAttribute('data-status')) === 'confirmed', 'the sheet made from the first player\'s entry');
    await stageIs(a.page, 'made');
    assert.equal(await a.page.textContent('[data-sheet-made-result]'), `${first.name} won (captures) · 1–0`);
    assert.match(await a.page.textContent('[data-sheet-made-how]') || '', /^Entered by the director\./);

    // Table 2: a page that stopped hearing the tournament initials an entry the director
    // has made the sheet of meanwhile: the refusal is said in the server's words.
    const t2 = seated(2);
    await call(server.url, t2.first.token, 'POST', `/api/tournaments/${id}/tables/1/2/sheet`,
      { action: 'enter', winner: t2.first.player_id, victory: 'resigned', seeds: { first: 4, second: 2 } });
    await late.page.goto(`${server.url}/t/${id}/sheet/1/2`);
    await stageIs(late.page, 'to-initial');
    // Stopped once open: a socket stopped while connecting makes the browser log a warning
    // (the page may show its stage from the first HTTP load before the socket opens).
    await late.page.waitForFunction(() => /** @type {any} */ (window).__omwesoSheet.store.socket.isOpen());
    await late.page.evaluate(() => /** @type {any} */ (window).__omwesoSheet.store.socket.stop());
    await call(server.url, director.token, 'POST', `/api/tournaments/${id}/tables/1/2/sheet`,
      { action: 'enter', winner: null, victory: null, seeds: { first: 4, second: 2 } });
    await late.page.tap('[data-sheet-confirm]');
    await late.page.waitForFunction(() => /sheet is made/.test(document.querySelector('[data-sheet-error]')?.textContent || ''));
    assert.equal(await late.page.textContent('[data-sheet-error]'), 'Not sent: this table\'s sheet is made; a director may correct it');
    // The refusal is the only problem that page had (the browser logs a failed request).
    assert.ok(late.problems.every((p) => /409|sheet is made/.test(p)), late.problems.join('\n'));
    for (const p of [a, b, desk]) assert.deepEqual(p.problems, [], `the ${p.label} page logged problems:\n${p.problems.join('\n')}`);
  } finally {
    for (const p of [a, b, desk, late]) await p.context.close();
  }
});
