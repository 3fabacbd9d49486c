// Load: a tournament of 100 players (50 tables) played by 100 random players on their own
// game sockets (think 300-600 ms: about a hundred moves a second in all), watched by one
// spectator's page at /t/<id> for about 20 s. The page must log no error, keep up
// (every table's board reaches the movers' version within a few seconds), show each board
// as the game had it at that version, and leave the main thread time to spare: its busy time
// per second (Chrome DevTools Protocol, Performance.getMetrics) is printed for
// docs/performance.md and bounded generously.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './helpers/server.js';
import { launch, openPage } from './helpers/browser.js';
import { RandomMover, session } from './helpers/protocol.js';
import { createTournament, joinPlayers, pairAndStart, signInContext } from './helpers/tournament.js';

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

const PLAYERS = 100;
const PLAY_SECONDS = Number(process.env.OMWESO_LOAD_SECONDS || 20);
const THINK_MS = /** @type {[number, number]} */ ([300, 600]);
/** The page must reach the movers' versions within this at the end. */
const CATCH_UP_MS = 10000;
/** A generous bound: the page is swamped when its main thread is busy this much a second. */
const MEDIAN_BUSY_LIMIT_MS = 500;

// A hundred players' sessions come from one address: more than the default 30 a minute.
process.env.OMWESO_SESSIONS_PER_IP_PER_MINUTE = '1000';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {RandomMover[]} */
const movers = [];

before(async () => {
  [server, browser] = await Promise.all([startServer(), launch()]);
});

after(async () => {
  for (const m of movers) m.stop();
  await browser?.close();
  await server?.stop();
});

/** @param {number[]} values @param {number} q in [0, 1] */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

test(`a spectator's page keeps up with ${PLAYERS / 2} tables of random players`, { timeout: 180000 }, async (t) => {
  const tournament = await createTournament(server.url, {
    name: 'Load Open', ruleset: 'omweso', setup: 'outer', rounds: 1, round_minutes: 30,
    // Akakyala ends a random game within a few moves; without it a game lasts about 25 turns.
    time_control: { preset: 'tournament', akakyala: false },
  });
  const players = await joinPlayers(server.url, tournament.id, PLAYERS, { prefix: 'Load' });
  const byId = new Map(players.map((p) => [p.player_id, p]));

  const spectator = await openPage(browser, 'spectator');
  await signInContext(spectator.context, server.url, await session(server.url, 'Spectator'));
  const { page } = spectator;
  page.setDefaultTimeout(30000);
  await page.goto(tournament.url);
  await page.waitForFunction((n) => document.querySelectorAll('#standings tbody tr[data-player-id]').length === n, PLAYERS);

  const cdp = await page.context().newCDPSession(page);
  // Thread ticks: the main thread's own CPU time. Wall time would count the waits for a CPU
  // on a machine the server and a hundred movers share with the browser.
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  /** @returns {Promise<Record<string, number>>} */
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));

  const round = await pairAndStart(server.url, tournament.id, tournament.director.token);
  const tables = round.pairings.filter((/** @type {any} */ p) => p.game_id);
  assert.equal(tables.length, PLAYERS / 2, 'every player has a table');
  for (const pairing of tables) {
    for (const who of [pairing.first, pairing.second]) {
      movers.push(new RandomMover({
        baseUrl: server.url, gameId: pairing.game_id, token: /** @type {any} */ (byId.get(who)).token,
        seed: 1000 + movers.length, thinkMs: THINK_MS, label: `table ${pairing.table} ${byId.get(who)?.name}`,
      }).start());
    }
  }
  await Promise.all(movers.map((m) => m.ready));

  // Play, sampling the page's main thread and the movers' pace once a second.
  /** @type {{busy: number, script: number, layout: number, style: number, moves: number, live: number, ended?: number}[]} */
  const samples = [];
  let last = await metrics();
  let lastMoves = 0;
  let lastAt = Date.now();
  const playUntil = Date.now() + PLAY_SECONDS * 1000;
  while (Date.now() < playUntil) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await metrics();
    const at = Date.now();
    const scale = 1000 / (at - lastAt);
    const moves = movers.reduce((sum, m) => sum + m.moves, 0);
    samples.push({
      busy: (now.TaskDuration - last.TaskDuration) * 1000 * scale,
      script: (now.ScriptDuration - last.ScriptDuration) * 1000 * scale,
      layout: (now.LayoutDuration - last.LayoutDuration) * 1000 * scale,
      style: (now.RecalcStyleDuration - last.RecalcStyleDuration) * 1000 * scale,
      moves: (moves - lastMoves) * scale,
      live: new Set(movers.filter((m) => m.status === 'playing').map((m) => m.gameId)).size,
    });
    const sample = samples[samples.length - 1];
    sample.ended = (samples.length > 1 ? samples[samples.length - 2].live : tables.length) - sample.live;
    last = now;
    lastMoves = moves;
    lastAt = at;
  }

  // The hall's view of fifty live tables (the README's picture), outside the sampling.
  await page.screenshot({ path: path.join(ARTIFACTS, 'tournament-50-tables.png') });

  // The movers' versions now, while they go on playing: the page must reach them.
  /** @type {Map<string, number>} */
  const target = new Map();
  for (const m of movers) target.set(m.gameId, Math.max(target.get(m.gameId) || 0, m.version));
  const caughtFrom = Date.now();
  const behind = await page.evaluate(async ({ wanted, limit }) => {
    const log = /** @type {any} */ (window).__omwesoTournament.boardLog;
    const until = performance.now() + limit;
    for (;;) {
      /** @type {Map<string, number>} */
      const seen = new Map();
      for (const [game, version] of log) seen.set(game, Math.max(seen.get(game) ?? -1, version));
      const late = wanted.filter(([game, version]) => (seen.get(game) ?? -1) < version)
        .map(([game, version]) => `${game} at ${seen.get(game) ?? 'nothing'} < ${version}`);
      if (!late.length || performance.now() > until) return late;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, { wanted: [...target], limit: CATCH_UP_MS });
  const catchUpMs = Date.now() - caughtFrom;
  for (const m of movers) m.stop();
  assert.deepEqual(behind, [], `the page did not reach the movers' versions within ${CATCH_UP_MS} ms`);

  // Every board the page applied is the game as the movers saw it at that version.
  const log = /** @type {[string, number, string | null][]} */ (await page.evaluate(() => /** @type {any} */ (window).__omwesoTournament.boardLog.slice()));
  /** @type {Map<string, string | null>} */
  const truth = new Map();
  for (const m of movers) for (const [v, position] of m.seen) truth.set(`${m.gameId}@${v}`, position);
  let compared = 0;
  /** @type {string[]} */
  const wrong = [];
  for (const [game, version, position] of log) {
    const key = `${game}@${version}`;
    if (!truth.has(key)) continue; // after the movers stopped (a steal), or before they joined
    compared += 1;
    if (truth.get(key) !== position) wrong.push(`${key}: page ${position}, game ${truth.get(key)}`);
  }
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} boards differ from the game at their version`);
  assert.ok(compared > log.length / 2, `most boards were compared (${compared} of ${log.length})`);

  // The tables on the page show the latest boards.
  const shown = await page.evaluate(() => [...document.querySelectorAll('[data-mini][data-game-id]')]
    .map((el) => [el.getAttribute('data-game-id'), Number(el.getAttribute('data-version'))]));
  assert.ok(shown.length >= 40, `the first page shows forty tables (${shown.length})`);

  const problems = [...spectator.problems, ...movers.flatMap((m) => m.problems)];
  const refusals = movers.flatMap((m) => m.refusals.map((r) => `${m.label}: ${r.code} ${r.message}`));
  await spectator.context.close();

  const busy = samples.map((s) => s.busy);
  const script = samples.map((s) => s.script);
  const rate = samples.map((s) => s.moves);
  const totalMoves = movers.reduce((sum, m) => sum + m.moves, 0);
  const report = [
    `tournament load: ${PLAYERS} players, ${tables.length} tables, think ${THINK_MS.join('-')} ms, ${samples.length} s sampled`,
    `  actions acknowledged: ${totalMoves} (per second: p50 ${quantile(rate, 0.5).toFixed(0)}, max ${Math.max(...rate).toFixed(0)}); tables still playing at the end: ${samples.at(-1)?.live}`,
    `  page main thread busy ms per second (TaskDuration, thread CPU time): p50 ${quantile(busy, 0.5).toFixed(0)}, p90 ${quantile(busy, 0.9).toFixed(0)}, max ${Math.max(...busy).toFixed(0)}`,
    `  of which script (ScriptDuration): p50 ${quantile(script, 0.5).toFixed(0)}, max ${Math.max(...script).toFixed(0)}; layout p50 ${quantile(samples.map((s) => s.layout), 0.5).toFixed(0)}; style p50 ${quantile(samples.map((s) => s.style), 0.5).toFixed(0)}`,
    `  boards applied by the page: ${log.length} (${compared} compared with the movers'); caught up ${catchUpMs} ms after play was sampled`,
    `  each second, actions/games ended/busy ms (script, layout, style): ${samples.map((s) => `${s.moves.toFixed(0)}/${s.ended}/${s.busy.toFixed(0)} (${s.script.toFixed(0)}, ${s.layout.toFixed(0)}, ${s.style.toFixed(0)})`).join(' ')}`,
    `  refusals of random moves: ${refusals.length}${refusals.length ? ` (${refusals.slice(0, 3).join('; ')})` : ''}`,
  ].join('\n');
  for (const line of report.split('\n')) t.diagnostic(line);

  assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  assert.ok(quantile(busy, 0.5) < MEDIAN_BUSY_LIMIT_MS, `the page's main thread is busy ${quantile(busy, 0.5).toFixed(0)} ms a second (median)`);
  assert.ok(totalMoves > PLAYERS * 2, `the movers played (${totalMoves} actions)`);
});
