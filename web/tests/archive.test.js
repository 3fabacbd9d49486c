// The archive in the browser, at a phone's size (issue 29): two accounts' finished games are
// found on `/games` by player and game, the search kept in the page's address; a game opens
// on its permanent page `/g/<id>`, which shows its result, steps through its replay (the
// buttons and the arrow keys), lists its moves in notation, and links to the analysis
// board and the game file's downloads. Real server, headless Chromium; any console error,
// failed request or serious accessibility violation fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { assertAccessible } from './helpers/axe.js';
import { call, session, wsUrl } from './helpers/protocol.js';

const live = serverAndBrowser();

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

const PASSWORD = 'seeds in the outer row at dusk';

/** A guest made the account `username`: its token. @param {string} name @param {string} username */
async function account(name, username) {
  const guest = await session(live.server.url, name);
  const made = await call(live.server.url, guest.token, 'POST', '/api/account', { username, password: PASSWORD });
  return /** @type {string} */ (made.token);
}

/**
 * A socket on a game as `token`, answering each sent frame's `ack` (or its `error`).
 * @param {string} gameId @param {string} token
 */
async function seat(gameId, token) {
  const ws = new WebSocket(wsUrl(live.server.url, `/ws/games/${gameId}?token=${encodeURIComponent(token)}`));
  /** @type {Map<string, (frame: any) => void>} */
  const waiting = new Map();
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data));
    const id = frame.id || frame.d?.id;
    if ((frame.t === 'ack' || frame.t === 'error') && waiting.has(id)) waiting.get(id)?.(frame);
  });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let n = 0;
  return {
    /** Sends `message` and resolves with its ack. @param {string} t @param {any} d */
    send: (t, d) => new Promise((resolve, reject) => {
      const id = `c${++n}`;
      waiting.set(id, (frame) => (frame.t === 'ack' ? resolve(frame) : reject(new Error(JSON.stringify(frame)))));
      ws.send(JSON.stringify({ t, d, id }));
    }),
    close: () => ws.close(1000),
  };
}

/**
 * A game of `ruleset` created by `south`, joined by `north`, played to `moves`, then
 * resigned by South: its id.
 * @param {string} ruleset @param {string} south @param {string} north @param {string[]} moves
 */
async function resignedGame(ruleset, south, north, moves) {
  const made = await call(live.server.url, south, 'POST', '/api/games', { ruleset });
  const id = made.game_id;
  await call(live.server.url, north, 'POST', `/api/games/${id}/join`, {});
  const s = await seat(id, south);
  const n = await seat(id, north);
  for (const [i, move] of moves.entries()) await (i % 2 === 0 ? s : n).send('move', { move });
  await s.send('resign', {});
  s.close();
  n.close();
  return id;
}

/** Every button and link of `selector` is a large enough target. @param {import('playwright-core').Page} page @param {string} selector */
async function assertLargeTargets(page, selector) {
  const small = await page.$$eval(selector, (els) => els
    .filter((el) => /** @type {HTMLElement} */ (el).offsetParent !== null)
    .map((el) => ({ text: (el.textContent || el.getAttribute('aria-label') || '').trim(), h: el.getBoundingClientRect().height }))
    .filter((t) => t.h < 44));
  assert.deepEqual(small, [], `targets under 44 px in ${selector}`);
}

test('finished games are searched on /games and replayed on their own page, on a phone', async () => {
  const kato = await account('Kato', 'kato_k');
  const nakato = await account('Nakato', 'nakato_n');
  const oware = await resignedGame('oware', kato, nakato, ['C1', 'C2']);
  const omweso = await resignedGame('omweso', nakato, kato, []);

  const opened = await openPage(live.browser, 'phone', PHONE);
  const { page } = opened;
  await page.goto(`${live.server.url}/games`);
  await page.waitForSelector('[data-archive-game]');
  assert.equal(await page.locator('[data-archive-game]').count(), 2, 'both finished games, newest first');
  assert.equal(await page.locator('[data-archive-game]').first().getAttribute('data-archive-game'), omweso);

  await page.fill('#archive-player', 'kato_k');
  await page.selectOption('#archive-ruleset', 'oware');
  await page.click('[data-archive-search]');
  await page.waitForFunction(() => document.querySelectorAll('[data-archive-game]').length === 1);
  assert.equal(new URL(page.url()).search, '?player=kato_k&ruleset=oware', 'the search is the address');
  const row = page.locator(`[data-archive-game="${oware}"]`);
  assert.equal(await row.locator('.archive-players').textContent(), 'Kato vs Nakato');
  assert.equal(await row.locator('.archive-result').textContent(), 'Nakato won by resignation');
  assert.match(String(await row.locator('.archive-details').textContent()), /^Oware · rated · 2 moves · /);
  assert.equal(await page.locator('[data-archive-more]').isHidden(), true, 'nothing older');
  await assertLargeTargets(page, '.archive-form button, .archive-form input, .archive-form select, .archive-game-link');
  await assertAccessible(page, 'the archive page with a search');

  // A search that finds nothing says so; one that names nobody says why.
  await page.selectOption('#archive-result', 'won');
  await page.click('[data-archive-search]');
  await page.waitForFunction(() => document.querySelector('[data-archive-status]')?.textContent === 'No finished game matches this search.');

  // The game's permanent page.
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll('[data-archive-game]').length === 1);
  await row.locator('a').click();
  await page.waitForURL(`**/g/${oware}`);
  const panel = page.locator('[data-finished-panel]');
  await panel.waitFor();
  await page.waitForFunction(() => document.querySelector('[data-finished-details]')?.textContent?.startsWith('Oware'));
  assert.equal(await panel.locator('[data-finished-result]').textContent(), 'Nakato won by resignation');
  assert.match(String(await panel.locator('[data-finished-details]').textContent()), /^Oware · rated · 2 moves · ended /);
  assert.equal(await panel.locator('[data-finished-moves]').textContent(), '1. S C1  2. N C2');
  assert.equal(await panel.locator('[data-replay-where]').textContent(), 'The final position, after 2 moves.');
  assert.equal(await panel.locator('[data-finished-analyse]').getAttribute('href'), `/analysis?game=${oware}`);
  assert.equal(await panel.locator('[data-download="ogn"]').getAttribute('href'), `/api/games/${oware}/export?format=ogn`);
  assert.equal(await panel.locator('[data-download="ndjson"]').getAttribute('href'), `/api/games/${oware}/export?format=ndjson`);
  assert.equal(await panel.locator('[data-finished-tournament]').isHidden(), true, 'not a tournament game');
  // The downloads are the game file's exports (docs/game-file.md), read with the silent
  // reading session the link makes first.
  for (const format of ['ogn', 'ndjson']) {
    const [file] = await Promise.all([page.waitForEvent('download'), panel.locator(`[data-download="${format}"]`).click()]);
    assert.ok(file.suggestedFilename().endsWith(`${oware}.${format}`), file.suggestedFilename());
    const text = await readFile(String(await file.path()), 'utf8');
    assert.match(text, /C1/, `${format}: the moves`);
  }

  // The step buttons draw their icons themselves (SVG): the media symbols ⏮ ⏭ were empty
  // boxes in Debian's Chromium, whose fonts lack them (issue 40).
  const steps = await panel.locator('[data-replay]').evaluateAll((buttons) => buttons.map((b) => {
    const icon = b.querySelector('svg[data-step-icon]');
    const box = icon?.getBoundingClientRect();
    return { text: (b.textContent || '').trim(), icon: icon?.getAttribute('data-step-icon'), drawn: Boolean(box && box.width >= 16 && box.height >= 16) };
  }));
  assert.deepEqual(steps, ['first', 'previous', 'next', 'last'].map((icon) => ({ text: '', icon, drawn: true })));
  await panel.locator('.replay-steps').screenshot({ path: path.join(ARTIFACTS, 'replay-steps.png') });
  // Step through the replay: the board shows each move's position.
  await panel.locator('[data-replay="first"]').click();
  assert.equal(await panel.locator('[data-replay-where]').textContent(), 'After move 1 of 2: South played C1.');
  assert.equal(await page.locator('[data-history-index="0"]').getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('ArrowRight');
  assert.equal(await panel.locator('[data-replay-where]').textContent(), 'The final position, after 2 moves.');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await panel.locator('[data-replay-where]').textContent(), 'After move 1 of 2: South played C1.');
  await panel.locator('[data-replay="last"]').click();
  assert.equal(await panel.locator('[data-replay-where]').textContent(), 'The final position, after 2 moves.');
  await assertLargeTargets(page, '[data-finished-panel] .button');
  await assertAccessible(page, 'a finished game\'s page', { include: ['[data-finished-panel]'] });

  await opened.context.close();
  assert.deepEqual(opened.problems, [], `the page logged problems:\n${opened.problems.join('\n')}`);
});

test('a guest\'s games are found by the name the sheets show, and a tournament\'s by its name', async () => {
  const url = live.server.url;
  const director = await session(url, 'TD');
  const event = await call(url, director.token, 'POST', '/api/tournaments', { name: 'Kampala Evening', ruleset: 'oware', rounds: 1 });
  const id = event.tournament_id;
  /** @type {Map<string, string>} */
  const tokens = new Map();
  for (const name of ['Kato Moses', 'Auma Grace']) {
    const guest = await session(url, name);
    await call(url, guest.token, 'POST', `/api/tournaments/${id}/join`);
    tokens.set(guest.player_id, guest.token);
  }
  await call(url, director.token, 'POST', `/api/tournaments/${id}/rounds`);
  const round = await call(url, director.token, 'POST', `/api/tournaments/${id}/rounds/1/start`);
  const { game_id: gameId, first, second } = round.pairings[0];
  const s = await seat(gameId, String(tokens.get(first)));
  const n = await seat(gameId, String(tokens.get(second)));
  await s.send('move', { move: 'C1' });
  await n.send('move', { move: 'C2' });
  await s.send('resign', {});
  s.close();
  n.close();

  const opened = await openPage(live.browser, 'relative', PHONE);
  const { page } = opened;
  await page.goto(`${url}/games`);
  await page.waitForSelector('[data-archive-game]');
  // Found by the name as typed on a phone, in any case.
  await page.fill('#archive-player', 'kato moses');
  await page.click('[data-archive-search]');
  await page.waitForFunction(() => document.querySelectorAll('[data-archive-game]').length === 1);
  const row = page.locator(`[data-archive-game="${gameId}"]`);
  assert.match(String(await row.locator('.archive-players').textContent()), /Kato Moses|Auma Grace/);
  assert.match(String(await row.locator('.archive-details').textContent()), / · Kampala Evening$/);
  assert.match(page.url(), /\/games\?player=kato\+moses$/);
  // A tournament picked by its name.
  await page.fill('#archive-player', '');
  await page.fill('#archive-tournament', 'Kampala Evening');
  await page.click('[data-archive-search]');
  await page.waitForFunction(() => document.querySelectorAll('[data-archive-game]').length === 1
    && document.querySelector('[data-archive-status]')?.textContent === '1 game shown.');
  assert.equal(await page.locator('[data-archive-game]').getAttribute('data-archive-game'), gameId);
  // Its page links to the tournament by name.
  await row.locator('a').click();
  await page.waitForURL(`**/g/${gameId}`);
  const link = page.locator('[data-finished-tournament]');
  await page.waitForFunction(() => /Kampala Evening/.test(document.querySelector('[data-finished-tournament]')?.textContent || ''));
  assert.equal(await link.getAttribute('href'), `/t/${id}`);
  // A name nobody has is no error: nothing is found.
  await page.goto(`${url}/games?player=Kato%20Mosis`);
  await page.waitForFunction(() => document.querySelector('[data-archive-status]')?.textContent === 'No finished game matches this search.');
  assert.equal(await page.locator('[data-archive-error]').textContent(), '');
  await opened.context.close();
  assert.deepEqual(opened.problems, [], `the page logged problems:\n${opened.problems.join('\n')}`);
});
