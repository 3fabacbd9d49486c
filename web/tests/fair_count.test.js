// The referee count as a player on a slow line gets it (docs/rules.md#4-play-under-the-referee-server-rules, "When the count
// starts"), through the real server, the real page with its default animation, and a delay
// proxy giving each player a 300 ms round trip. Each player reacts a second after their
// board becomes playable, as a person does. Over a whole game with long sowings:
// - no steal opens sooner than the full count (less the one-way delay) after the victim's
//   board became playable for that turn (with a second's reaction none opens at all,
//   unless the machine is too loaded to click in time);
// - every turn's count, measured from the moment the page made the position playable,
//   leaves the player the full 3 s less the one-way delay the lag allowance covers;
// - the first turn's count starts only once both players are at the table.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { call, session, rng } from './helpers/protocol.js';
import { signInContext } from './helpers/tournament.js';
import { startDelayProxy } from './helpers/delayproxy.js';

const ONE_WAY_MS = 150;
const REACTION_MS = 1000;
const COUNT_MS = 3000;
/** A whole game, but bounded: a random game that has not ended by then is resigned. */
const MAX_TURNS = 120;

const live = serverAndBrowser();

/**
 * Records, in the page, each moment the board became playable for its player: the version,
 * when (Date.now(): this machine's clock, the server's too) and the referee deadline the
 * page holds for that turn. Polled every 20 ms, so a moment is recorded at most 20 ms late,
 * which only makes the margin measured smaller.
 */
function recordPlayable() {
  /** @type {{version: number, at: number, deadline: number | null}[]} */
  const moments = [];
  /** @type {any} */ (window).__playable = moments;
  let last = -1;
  setInterval(() => {
    const o = /** @type {any} */ (window).__omweso;
    const s = o?.settled();
    if (!s || s.status !== 'playing' || !s.you || s.to_move !== s.you || s.steal_open || s.pending) return;
    if (!document.querySelector('svg[data-board] [data-legal]')) return;
    // The first turn is playable before its count starts (it waits for both players):
    // the moment is when the count is there too.
    if (o.session.snap.clock.referee_deadline == null) return;
    if (s.version === last) return;
    last = s.version;
    moments.push({ version: s.version, at: Date.now(), deadline: o.session.snap.clock.referee_deadline });
  }, 20);
}

/**
 * Plays the page's seat until the game ends: each time the board is playable, waits a
 * person's reaction, then taps a legal pit (the fullest half the time: long sowings) or a
 * decision's option.
 * @param {import('playwright-core').Page} page @param {() => number} random
 * @param {{turns: number}} shared
 */
async function play(page, random, shared) {
  let acted = -1;
  for (;;) {
    const handle = await page.waitForFunction((v) => {
      const s = /** @type {any} */ (window).__omweso?.settled();
      if (!s) return null;
      if (s.status !== 'playing') return { over: true, version: s.version };
      const mine = s.to_move === s.you && !s.steal_open;
      const offered = document.querySelector('[data-choice], svg[data-board] [data-legal]');
      return mine && offered && s.version !== v ? { over: false, version: s.version } : null;
    }, acted, { timeout: 120000, polling: 20 });
    const state = /** @type {{over: boolean, version: number}} */ (await handle.jsonValue());
    if (state.over) return;
    acted = state.version;
    await page.waitForTimeout(REACTION_MS);
    if (shared.turns >= MAX_TURNS) {
      await page.evaluate(() => /** @type {any} */ (window).__omweso.session.send('resign', {}));
      return;
    }
    const choices = page.locator('[data-choice]');
    if (await choices.count()) {
      await choices.nth(Math.floor(random() * await choices.count())).tap();
      continue;
    }
    const pits = await page.$$eval('svg[data-board] [data-legal][data-pit]', (els) => els.map((el) => ({
      pit: el.getAttribute('data-pit'), count: Number(el.getAttribute('data-count') || 0),
    })));
    if (!pits.length) continue;
    const fullest = pits.reduce((a, b) => (b.count > a.count ? b : a));
    const pick = random() < 0.5 ? fullest : pits[Math.floor(random() * pits.length)];
    shared.turns += 1;
    await page.locator(`svg[data-board] [data-pit="${pick.pit}"]`).tap();
  }
}

test('over a whole game at 300 ms round trip, every count starts after the turn was shown and no steal opens', async () => {
  const proxies = await Promise.all([startDelayProxy(live.server.url, ONE_WAY_MS), startDelayProxy(live.server.url, ONE_WAY_MS)]);
  const [south, north] = await Promise.all([session(live.server.url, 'Kato'), session(live.server.url, 'Nakato')]);
  const created = await call(live.server.url, south.token, 'POST', '/api/games',
    // Tournament timing without akakyala, which ends most random games within ten turns.
    { ruleset: 'omweso', setup: 'outer', seat: 'first', time_control: { preset: 'tournament', akakyala: false } });
  const id = created.game_id;
  await call(live.server.url, north.token, 'POST', `/api/games/${id}/join`);
  // The game has started: nobody is at the table yet, so no count runs.
  const before = await call(live.server.url, south.token, 'GET', `/api/games/${id}`);
  assert.equal(before.status, 'playing');
  assert.equal(before.clock.referee_deadline, null, 'the first count waits for both players');

  const pages = [];
  for (const [i, s] of [south, north].entries()) {
    const p = await openPage(live.browser, s.name, PHONE);
    await signInContext(p.context, proxies[i].url, s);
    await p.page.addInitScript(recordPlayable);
    await p.page.addInitScript(() => {
      /** @type {string[]} */
      const violations = [];
      /** @type {any} */ (window).__csp = violations;
      document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    /** @type {{t: string, v: number, d: any, at: number}[]} */
    const frames = [];
    p.page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
      try {
        const msg = JSON.parse(String(payload));
        frames.push({ t: msg.t, v: msg.v, d: msg.d, at: Date.now() });
      } catch { /* not JSON */ }
    }));
    pages.push({ ...p, frames });
  }
  // South comes first and waits a while alone: still no count, so no steal.
  await pages[0].page.goto(`${proxies[0].url}/g/${id}`);
  await pages[0].page.waitForSelector('svg[data-board] [data-legal]');
  await pages[0].page.waitForTimeout(COUNT_MS + 1500);
  const waiting = await call(live.server.url, south.token, 'GET', `/api/games/${id}`);
  assert.equal(waiting.clock.referee_deadline, null, 'one player alone: the count waits');
  assert.equal(waiting.clock.steal_open, false);
  const northArrives = Date.now();
  await pages[1].page.goto(`${proxies[1].url}/g/${id}`);

  const shared = { turns: 0 };
  await Promise.all(pages.map((p, i) => play(p.page, rng(23 + i), shared)));

  // The first count started when North arrived, not when the game began.
  const count = pages[0].frames.find((f) => f.t === 'count');
  assert.ok(count, 'South heard the count start');
  assert.ok(count.d.clock.referee_deadline >= northArrives + COUNT_MS,
    `the first count ends ${count.d.clock.referee_deadline - northArrives} ms after North arrived`);

  const played = pages[0].frames.filter((f) => f.t === 'played' && !f.d.pending);
  const end = pages[0].frames.find((f) => f.t === 'end');
  console.log(`fair count: the game ended ${JSON.stringify(end?.d)}`);
  const longest = Math.max(...played.map((f) => f.d.display_ms));
  const margins = [];
  /** @type {string[]} */
  const unfairSteals = [];
  let steals = 0;
  for (const [i, p] of pages.entries()) {
    /** @type {{version: number, at: number, deadline: number}[]} */
    const moments = await p.page.evaluate(() => /** @type {any} */ (window).__playable);
    for (const m of moments) margins.push(m.deadline - m.at);
    // A steal against this page's player (a person reacts in a second, so none is
    // expected; a machine too loaded to click in time may see one) must come no sooner
    // than the full count, less the one-way delay, after their board became playable for
    // that very turn.
    for (const steal of p.frames.filter((f) => f.t === 'steal' && f.d.victim === (i === 0 ? 's' : 'n'))) {
      steals += 1;
      const seen = moments.filter((m) => m.version < steal.v).pop();
      const turnOpened = p.frames.filter((f) => f.t === 'played' && !f.d.pending && f.v < steal.v).pop();
      if (!seen || (turnOpened && seen.version < turnOpened.v)) {
        unfairSteals.push(`version ${steal.v}: the steal came before the board was ever playable`);
      } else if (steal.at - seen.at < COUNT_MS - ONE_WAY_MS) {
        unfairSteals.push(`version ${steal.v}: ${steal.at - seen.at} ms after the board was playable`);
      }
    }
  }
  assert.deepEqual(unfairSteals, [], 'a steal opened before the player had the full count');
  assert.ok(margins.length >= shared.turns / 2, `only ${margins.length} playable moments recorded for ${shared.turns} turns`);
  const least = Math.min(...margins);
  console.log(`fair count: ${shared.turns} turns, ${played.length} played events, ${steals} steals, longest display ${longest} ms, `
    + `count left when playable: min ${least} ms, median ${margins.sort((a, b) => a - b)[Math.floor(margins.length / 2)]} ms`);
  assert.ok(shared.turns >= 20, `a game of ${shared.turns} turns is too short to tell`);
  assert.ok(longest >= 3000, `no long sowing in the game (longest display ${longest} ms)`);
  for (const margin of margins) {
    assert.ok(margin >= COUNT_MS - ONE_WAY_MS,
      `a player had ${margin} ms of count from seeing the position (at least ${COUNT_MS - ONE_WAY_MS} owed)`);
  }
  const csp = await Promise.all(pages.map((p) => p.page.evaluate(() => /** @type {any} */ (window).__csp)));
  const problems = pages.flatMap((p) => p.problems);
  await Promise.all(pages.map((p) => p.context.close()));
  await Promise.all(proxies.map((p) => p.stop()));
  assert.deepEqual(problems, [], `the pages logged problems:\n${problems.join('\n')}`);
  assert.deepEqual(csp.flat(), [], 'no Content-Security-Policy violation');
});
