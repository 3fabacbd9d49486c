// Game files on the analysis board, on a phone, in headless Chromium against the real
// server (docs/game-file.md): a finished game of this server opened from its address
// (`/analysis?game=<id>`, read through its export) as the line, stepped back and forward;
// a file pasted (the Mweiso example of docs/game-file.md, its simultaneous opening in the
// order applied) and stepped through; a file of two games chosen from the phone's files,
// the second picked; a bad file refused saying where. Large touch targets, no console
// errors but the one refusal.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { call, session, RandomMover, waitFor } from './helpers/protocol.js';
import { signInContext } from './helpers/tournament.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const DOC = readFileSync(path.resolve(here, '..', '..', 'docs', 'game-file.md'), 'utf8');
/** The ```ogn examples of docs/game-file.md: the short game, Omweso, Mweiso, Oware. */
const EXAMPLES = DOC.split('```ogn\n').slice(1).map((b) => b.split('```')[0]);

const live = serverAndBrowser();

/**
 * The analysis board once settled.
 * @param {import('playwright-core').Page} page
 * @param {(s: any) => boolean} [until]
 */
async function settled(page, until = () => true) {
  return waitFor(async () => {
    const s = await page.evaluate(() => /** @type {any} */ (window).__omwesoAnalysis?.settled() ?? null);
    return s && until(s) ? s : null;
  }, 'the analysis board to settle', { timeout: 15000, every: 50 });
}

/**
 * The height of an element on the page, in CSS pixels.
 * @param {import('playwright-core').Page} page @param {string} selector
 */
async function height(page, selector) {
  const box = await page.locator(selector).boundingBox();
  assert.ok(box, `${selector} is shown`);
  return box.height;
}

test('a game of this server and game files, opened on the analysis board of a phone', async () => {
  // A finished game: four random turns, then North resigns.
  const kato = await session(live.server.url, 'Kato');
  const nakato = await session(live.server.url, 'Nakato');
  const { game_id: gameId } = await call(live.server.url, kato.token, 'POST', '/api/games', { ruleset: 'oware' });
  await call(live.server.url, nakato.token, 'POST', `/api/games/${gameId}/join`, {});
  const movers = [
    new RandomMover({ baseUrl: live.server.url, gameId, token: kato.token, seed: 11, thinkMs: [5, 20], maxMoves: 2 }),
    new RandomMover({ baseUrl: live.server.url, gameId, token: nakato.token, seed: 12, thinkMs: [5, 20], maxMoves: 2 }),
  ];
  movers.forEach((m) => m.start());
  await waitFor(async () => {
    const g = await call(live.server.url, kato.token, 'GET', `/api/games/${gameId}`);
    return g.history.length >= 4 ? g : null;
  }, 'four turns played');
  await (movers.find((m) => m.you === 'n') || movers[1]).resign();
  movers.forEach((m) => m.stop());
  const snap = await waitFor(async () => {
    const g = await call(live.server.url, kato.token, 'GET', `/api/games/${gameId}`);
    return g.status === 'finished' ? g : null;
  }, 'the game over');
  // Its export is the game file the board reads.
  const file = await call(live.server.url, kato.token, 'GET', `/api/games/${gameId}/export?format=ogn`);
  assert.match(file, /\[Result "1-0"\]\n\[Termination "resigned"\]/);

  const analyst = await session(live.server.url, 'Apio');
  const { context, page, problems } = await openPage(live.browser, 'phone-files', PHONE);
  await signInContext(context, live.server.url, analyst);

  // /analysis?game=<id>: the game's moves are the line, its last position shown.
  await page.goto(`${live.server.url}/analysis?game=${gameId}`);
  let s = await settled(page, (x) => x.nodes === snap.history.length + 1);
  assert.equal(s.ruleset, 'oware');
  assert.deepEqual(s.moves, snap.history.map((/** @type {any} */ e) => e.move));
  assert.equal(s.cursor, snap.history.length);
  assert.equal(s.position, snap.history[snap.history.length - 1].position);
  assert.equal(s.drawn, s.position);
  assert.equal(await page.locator('[data-analysis-game]').getAttribute('href'), `/g/${gameId}`);
  // Stepped back to the start, and forward again, move by move.
  for (let i = snap.history.length - 1; i >= 0; i--) {
    await page.click('[data-line-back]');
    s = await settled(page, (x) => x.cursor === i);
  }
  assert.equal(s.position, '4,4,4,4,4,4/4,4,4,4,4,4 s 0 0');
  await page.click('[data-line-forward]');
  s = await settled(page, (x) => x.cursor === 1);
  assert.equal(s.position, snap.history[0].position);
  // ?ply= still opens the game at a move; a speed asked for in the address (fast) stays
  // in it when the board rewrites the address below.
  await page.goto(`${live.server.url}/analysis?game=${gameId}&ply=2&anim=fast`);
  s = await settled(page, (x) => x.cursor === 2 && x.nodes === snap.history.length + 1);
  assert.equal(s.position, snap.history[1].position);

  // A file pasted: Mweiso's opening, North's A4 applied first, then South's C1.
  const mweiso = EXAMPLES[2];
  await page.fill('#game-file-text', mweiso);
  // Large touch targets on the phone.
  assert.ok(await height(page, '[data-game-file-open]') >= 44);
  assert.ok(await height(page, '#game-file-text') >= 44);
  assert.ok(await height(page, '#game-file-input') >= 44);
  await page.click('[data-game-file-open]');
  s = await settled(page, (x) => x.ruleset === 'mweiso' && x.cursor === 0);
  assert.deepEqual(s.moves, ['A4', 'C1', "H4'/l/l/F4", 'E2']);
  assert.equal(s.position, '2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o');
  assert.equal(new URL(page.url()).search, '?anim=fast', 'the address no longer names the game, and keeps the speed');
  const after = [
    '1,0,3,3,0,3,3,3/6,0,5,1,5,5,5,1/2,0,2,0,2,2,2,0/2,0,2,0,2,2,2,0 os',
    '1,0,3,3,0,3,3,3/6,0,5,1,5,5,5,1/2,0,2,0,2,2,2,0/2,0,0,1,0,3,3,1 n',
    '3,1,2,6,3,2,0,1/0,1,8,1,9,10,7,4/0,0,2,0,2,0,0,0/0,0,0,1,0,0,0,1 s',
  ];
  for (const [i, position] of after.entries()) {
    await page.click('[data-line-forward]');
    s = await settled(page, (x) => x.cursor === i + 1);
    assert.equal(s.position, position);
    assert.equal(s.drawn, position);
  }
  assert.match(String(await page.locator('[data-analysis-file]').textContent()), /Asha vs Juma/);
  // The moves of the line are listed, and a move of it opened by tapping.
  await page.click('[data-line-index="1"]');
  s = await settled(page, (x) => x.cursor === 1);
  assert.equal(s.position, after[0]);

  // A file of two games chosen from the phone: the first shown, the second picked.
  await page.setInputFiles('#game-file-input', {
    name: 'games.ogn', mimeType: 'text/plain', buffer: Buffer.from(`${EXAMPLES[1]}\n${EXAMPLES[3]}`),
  });
  s = await settled(page, (x) => x.ruleset === 'omweso' && x.nodes === 4);
  assert.deepEqual(s.moves, ['E1', 'G4', 'E4']);
  assert.equal(s.position, '0,0,2,2,2,2,4,4/2,2,2,2,2,2,2,2/2,2,2,2,4,2,2,2/0,2,2,4,4,2,0,0 s');
  assert.equal(await page.locator('[data-game-file-choice] option').count(), 2);
  await page.selectOption('[data-game-file-choice]', '1');
  s = await settled(page, (x) => x.ruleset === 'oware');
  assert.deepEqual(s.moves, ['C1', 'F2', 'D1']);
  // The impasse ended it: its last position is over, nobody moves there.
  await page.click('[data-line-index="3"]');
  s = await settled(page, (x) => x.cursor === 3);
  assert.deepEqual(s.legal, []);
  assert.match(String(await page.locator('[data-analysis-status]').textContent()), /North wins|Game over/);

  // A bad file is refused, saying where and what is wrong; the board keeps its line.
  await page.fill('#game-file-text', '1. E1 *');
  await page.click('[data-game-file-open]');
  await page.waitForFunction(() => (document.querySelector('[data-game-file-error]')?.textContent || '').includes('line 1'));
  assert.match(String(await page.locator('[data-game-file-error]').textContent()),
    /That file could not be read: the game file, line 1, column 1: expected a tag pair/);
  s = await settled(page);
  assert.equal(s.ruleset, 'oware');
  await context.close();
  // The refused file is the one HTTP error expected: its 400 answer and its console line.
  const refused = `[phone-files] HTTP 400 POST ${live.server.url}/api/analysis/read-game `;
  assert.equal(problems.length, 2, `the page logged problems:\n${problems.join('\n')}`);
  assert.ok(problems.some((p) => p.startsWith(refused)), problems.join('\n'));
  assert.ok(problems.some((p) => p.includes('console.error: Failed to load resource: the server responded with a status of 400')), problems.join('\n'));
});
