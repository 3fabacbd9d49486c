// The analysis board in headless Chromium against the real server: a running game's
// position opened from its address (`/analysis?game=..&ply=..`), a move played by
// clicking (decisions answered by clicking), the engine asked for its best move and its
// line played by clicking, back and forward, a position typed in (and a bad one refused
// in words), the game page's "Analyse" link; the game itself is never disturbed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage } from './helpers/browser.js';
import { call, session, RandomMover, waitFor } from './helpers/protocol.js';
import { signInContext } from './helpers/tournament.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '..', 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** docs/rules.md#16-worked-example, and the position after South's E1. */
const WORKED = '5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s';
const AFTER_E1 = '5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n';

const live = serverAndBrowser();

/**
 * The analysis board once settled.
 * @param {import('playwright-core').Page} page
 * @param {(s: any) => boolean} [until]
 */
async function settled(page, until = () => true) {
  // Polled from here: the page's Content-Security-Policy forbids evaluating a predicate
  // sent as text.
  return waitFor(async () => {
    const s = await page.evaluate(() => /** @type {any} */ (window).__omwesoAnalysis?.settled() ?? null);
    return s && until(s) ? s : null;
  }, 'the analysis board to settle', { timeout: 15000, every: 50 });
}

/** The legal pits the board offers. @param {import('playwright-core').Page} page */
async function offered(page) {
  return page.locator('svg[data-board] [data-legal]').evaluateAll((els) => els.map((el) => el.getAttribute('data-pit')));
}

/**
 * Clicks decision options until the move is over.
 * @param {import('playwright-core').Page} page
 */
async function answerDecisions(page) {
  for (let i = 0; i < 50; i++) {
    const s = await settled(page);
    if (!s.pending) return s;
    await page.locator('[data-choice]').first().click();
    await page.mouse.move(1, 1);
  }
  throw new Error('more than 50 decisions');
}

test('analysing a running game at a move, playing, asking the engine, typing a position', async () => {
  // A game being played by two protocol clients: six turns, then they wait.
  const kato = await session(live.server.url, 'Kato');
  const nakato = await session(live.server.url, 'Nakato');
  const { game_id: gameId } = await call(live.server.url, kato.token, 'POST', '/api/games', { ruleset: 'omweso' });
  await call(live.server.url, nakato.token, 'POST', `/api/games/${gameId}/join`, {});
  const movers = [
    new RandomMover({ baseUrl: live.server.url, gameId, token: kato.token, seed: 7, thinkMs: [5, 20], maxMoves: 3 }),
    new RandomMover({ baseUrl: live.server.url, gameId, token: nakato.token, seed: 8, thinkMs: [5, 20], maxMoves: 3 }),
  ];
  movers.forEach((m) => m.start());
  const snap = await waitFor(async () => {
    const s = await call(live.server.url, kato.token, 'GET', `/api/games/${gameId}`);
    return s.history.length >= 6 && !s.pending ? s : null;
  }, 'six turns played');
  movers.forEach((m) => m.stop());
  const version = snap.version;

  const watcher = await session(live.server.url, 'Okello');
  const { context, page, problems } = await openPage(live.browser, 'analyst');
  await signInContext(context, live.server.url, watcher);

  // The game page links each reviewed position to the analysis board.
  await page.goto(`${live.server.url}/g/${gameId}`);
  await page.click('[data-history-index="2"]');
  const link = page.locator('[data-analyse-ply="3"]');
  assert.equal(await link.getAttribute('href'), `/analysis?game=${gameId}&ply=3`);

  await page.goto(`${live.server.url}/analysis?game=${gameId}&ply=3`);
  let s = await settled(page, (x) => x.cursor === 3);
  assert.equal(s.position, snap.history[2].position);
  assert.equal(s.drawn, s.position);
  assert.deepEqual(s.moves, snap.history.map((/** @type {any} */ e) => e.move));
  // The pits lit are exactly the server's legal starts for that position.
  const legal = await call(live.server.url, watcher.token, 'POST', '/api/analysis/legal', { ruleset: 'omweso', position: s.position });
  const side = s.position.endsWith(' s') ? 's' : 'n';
  assert.deepEqual((await offered(page)).sort(), legal.legal[side].starts.map((/** @type {any} */ r) => r.start).sort());

  // Play the first lit pit by clicking (and answer any decision by clicking).
  const pit = await page.locator('svg[data-board] g.pit[data-legal]').first().getAttribute('data-pit');
  await page.click(`svg[data-board] g.pit[data-pit="${pit}"]`);
  await page.mouse.move(1, 1);
  s = await answerDecisions(page);
  assert.equal(s.cursor, 4);
  assert.equal(s.moves[3].split('/')[0], pit);
  const replayed = await call(live.server.url, watcher.token, 'POST', '/api/analysis/play', { ruleset: 'omweso', position: snap.history[2].position, move: s.moves[3] });
  assert.equal(s.position, replayed.after.position);
  assert.equal(s.drawn, s.position);
  await page.screenshot({ path: path.join(ARTIFACTS, 'analysis.png'), fullPage: true });

  // Ask the engine: a legal best move, marked on the board, its score and its line.
  await page.selectOption('#engine-millis', '500');
  await page.click('[data-ask-engine]');
  await page.waitForSelector('[data-engine-move]');
  const best = String(await page.locator('[data-engine-move]').getAttribute('data-engine-move'));
  const here = await call(live.server.url, watcher.token, 'POST', '/api/analysis/legal', { ruleset: 'omweso', position: s.position });
  const mover = s.position.endsWith(' s') ? 's' : 'n';
  assert.ok(here.legal[mover].moves.includes(best), `${best} is one of ${here.legal[mover].moves}`);
  const score = Number(await page.locator('[data-engine-score]').getAttribute('data-engine-score'));
  assert.ok(score >= -1 && score <= 1);
  assert.ok(Number(await page.locator('[data-engine-depth]').getAttribute('data-engine-depth')) >= 1);
  assert.ok(await page.locator('svg[data-board] .pit.best').count() === 1, 'the best move is marked on the board');
  await page.screenshot({ path: path.join(ARTIFACTS, 'analysis-engine.png'), fullPage: true });
  // Its line's first move, clicked, is played on the board.
  await page.click('[data-pv-index="0"]');
  s = await settled(page, (x) => x.cursor === 5);
  assert.equal(s.moves[4], best);

  // Back and forward through the line.
  await page.click('[data-line-back]');
  s = await settled(page, (x) => x.cursor === 4);
  assert.equal(s.position, replayed.after.position);
  await page.click('[data-line-forward]');
  s = await settled(page, (x) => x.cursor === 5);
  await page.click('[data-line-index="1"]');
  s = await settled(page, (x) => x.cursor === 1);
  assert.equal(s.position, snap.history[0].position);

  // The game was not disturbed.
  const after = await call(live.server.url, kato.token, 'GET', `/api/games/${gameId}`);
  assert.equal(after.version, version);
  assert.equal(after.history.length, snap.history.length);

  // A position typed in: docs/rules.md#16-worked-example's worked example.
  await page.fill('#position-input', WORKED);
  await page.click('[data-position-submit]');
  s = await settled(page, (x) => x.cursor === 0 && x.nodes === 1 && x.position.startsWith('5,0,0,0'));
  assert.equal(s.position, WORKED);
  assert.deepEqual((await offered(page)).sort(), ['A2', 'B2', 'D2', 'E1', 'E2', 'H2']);
  assert.match(page.url(), /\/analysis\?ruleset=omweso&position=/);
  // E1 with the keyboard: focus the pit, Enter.
  await page.focus('svg[data-board] g.pit[data-pit="E1"]');
  await page.keyboard.press('Enter');
  s = await settled(page, (x) => x.cursor === 1);
  assert.equal(s.position, AFTER_E1);
  assert.equal(s.drawn, AFTER_E1);

  // A bad position is refused in words, and the board stays as it was.
  await page.fill('#position-input', '4,4,4 s');
  await page.click('[data-position-submit]');
  await page.waitForFunction(() => (document.querySelector('[data-position-error]')?.textContent || '').includes('refused'));
  const error = await page.locator('[data-position-error]').textContent();
  assert.match(String(error), /That position was refused: .*four rows/);
  s = await settled(page);
  assert.equal(s.position, AFTER_E1);

  await context.close();
  // The refused position is the one HTTP error expected, and it is logged exactly twice: its
  // 400 answer (seen by openPage) and the browser's console line for it. Anything else fails.
  const refused = `[analyst] HTTP 400 POST ${live.server.url}/api/analysis/legal `;
  const console400 = '[analyst] console.error: Failed to load resource: the server responded with a status of 400 (Bad Request)';
  assert.equal(problems.length, 2, `the page logged problems:\n${problems.join('\n')}`);
  assert.ok(problems.includes(console400), problems.join('\n'));
  const answer = problems.find((p) => p.startsWith(refused));
  assert.ok(answer, `the refusal of 4,4,4 s: ${problems.join('\n')}`);
  // The request was the position typed in, and the answer the documented refusal.
  const [request, response] = answer.slice(refused.length).split(' -> ');
  assert.equal(JSON.parse(request).position, '4,4,4 s', answer);
  assert.match(response, /^\{"error":\{"code":"bad_position","message":"/, answer);
});

test('a finished game: its last position says "Game over", the engine is not asked, the field follows the position', async () => {
  // Four turns, then North resigns: the board after the last move would let North move on.
  const kato = await session(live.server.url, 'Kato');
  const nakato = await session(live.server.url, 'Nakato');
  const { game_id: gameId } = await call(live.server.url, kato.token, 'POST', '/api/games', { ruleset: 'omweso' });
  await call(live.server.url, nakato.token, 'POST', `/api/games/${gameId}/join`, {});
  const movers = [
    new RandomMover({ baseUrl: live.server.url, gameId, token: kato.token, seed: 3, thinkMs: [5, 20], maxMoves: 2 }),
    new RandomMover({ baseUrl: live.server.url, gameId, token: nakato.token, seed: 4, thinkMs: [5, 20], maxMoves: 2 }),
  ];
  movers.forEach((m) => m.start());
  await waitFor(async () => {
    const g = await call(live.server.url, kato.token, 'GET', `/api/games/${gameId}`);
    return g.history.length >= 4 && !g.pending ? g : null;
  }, 'four turns played');
  const north = movers.find((m) => m.you === 'n') || movers[1];
  await north.resign();
  movers.forEach((m) => m.stop());
  const snap = await call(live.server.url, kato.token, 'GET', `/api/games/${gameId}`);
  assert.equal(snap.status, 'finished');
  assert.deepEqual(snap.outcome, { result: 'win', winner: 's', victory: 'resigned' });
  const plies = snap.history.length;
  const last = snap.history[plies - 1].position;

  const watcher = await session(live.server.url, 'Okello');
  const { context, page, problems } = await openPage(live.browser, 'analyst-finished');
  await signInContext(context, live.server.url, watcher);
  await page.goto(`${live.server.url}/analysis?game=${gameId}&ply=${plies}`);
  let s = await settled(page, (x) => x.cursor === plies);
  assert.equal(s.position, last);
  assert.deepEqual(s.legal, [], 'nobody moves in a finished position');
  assert.equal(await page.locator('[data-analysis-status]').textContent(),
    'Game over: South wins. Resignation: North resigned.');
  assert.equal(await page.locator('[data-ask-engine]').isDisabled(), true);
  assert.equal(await page.locator('#engine-answer').textContent(), 'The game is over in this position.');
  assert.equal(await page.locator('[data-engine-move]').count(), 0);
  assert.equal(await page.inputValue('#position-input'), last, 'the field holds the position shown, not the start');

  // One move back the game goes on: its side to move, and the field follows.
  await page.click('[data-line-back]');
  s = await settled(page, (x) => x.cursor === plies - 1);
  assert.equal(await page.inputValue('#position-input'), snap.history[plies - 2].position);
  const status = String(await page.locator('[data-analysis-status]').textContent());
  assert.match(status, /^(South|North) to move\.$/);
  assert.equal(await page.locator('[data-ask-engine]').isDisabled(), false);
  // Forward again, the move sown: over again.
  await page.click('[data-line-forward]');
  s = await settled(page, (x) => x.cursor === plies);
  assert.match(String(await page.locator('[data-analysis-status]').textContent()), /^Game over: South wins\./);
  assert.equal(await page.inputValue('#position-input'), last);
  await page.click('[data-line-index="1"]');
  s = await settled(page, (x) => x.cursor === 1);
  assert.equal(await page.inputValue('#position-input'), snap.history[0].position);

  await context.close();
  assert.deepEqual(problems, [], `the page logged problems:\n${problems.join('\n')}`);
});

test('a Mweiso opening (never clockwise), then a clockwise start, its decision answered with previews, on a phone', async () => {
  const analyst = await session(live.server.url, 'Apio');
  const { context, page, problems } = await openPage(live.browser, 'phone', {
    viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2,
  });
  await signInContext(context, live.server.url, analyst);
  await page.goto(`${live.server.url}/analysis?ruleset=mweiso`);
  let s = await settled(page, (x) => x.ruleset === 'mweiso' && x.legal.length > 0);
  // docs/rules.md#2-mweiso-kagera-murray-1951: no opening turn starts clockwise.
  assert.ok(s.legal.includes('A1') && s.legal.includes('H4'), `${s.legal}`);
  assert.ok(!s.legal.includes("A1'") && !s.legal.includes("H4'"), `${s.legal}`);
  // South opens C1, North H4; South, first in the main phase, then has A1', whose
  // clockwise chain asks a, c or l.
  await page.locator('svg[data-board] [data-pit="C1"]').tap();
  s = await settled(page, (x) => x.cursor === 1 && x.legal.includes('H4'));
  await page.locator('svg[data-board] [data-pit="H4"]').tap();
  s = await settled(page, (x) => x.cursor === 2 && x.legal.includes("A1'"));
  await page.locator('svg[data-board] [data-pit="A1\'"]').tap();
  s = await settled(page, (x) => x.pending);
  assert.deepEqual(s.pending, ['a', 'c', 'l']);
  // Each option says what it does.
  for (const choice of ['a', 'c', 'l']) {
    assert.match(String(await page.locator(`[data-preview="${choice}"]`).textContent()), /sown in \d+ lap/);
  }
  await page.screenshot({ path: path.join(ARTIFACTS, 'analysis-decision-phone.png'), fullPage: true });
  await page.locator('[data-choice="a"]').tap();
  s = await answerDecisions(page);
  assert.equal(s.cursor, 3);
  assert.deepEqual(s.moves, ['C1', 'H4', "A1'/a"]);
  assert.match(s.position, / n$/, 'North moves next in the main phase');
  await context.close();
  assert.deepEqual(problems, []);
});
