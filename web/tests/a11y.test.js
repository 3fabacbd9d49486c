// Accessibility: axe-core audits every page of the site as people meet it - the lobby (and
// its name dialog while open), a game (played and watched), the analysis board, a
// tournament (watched, played, directed) and the tournament form - on the real server in headless Chromium. Any
// violation of impact serious or critical fails, naming the rule and the elements.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './helpers/server.js';
import { launch, openPage } from './helpers/browser.js';
import { audit, format } from './helpers/axe.js';
import { createTournament, joinPlayers, pairAndStart, signInContext } from './helpers/tournament.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {Awaited<ReturnType<typeof openPage>>[]} */
let opened = [];

before(async () => {
  [server, browser] = await Promise.all([startServer(), launch()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** @param {string} label @param {any} [options] */
async function open(label, options) {
  const p = await openPage(browser, label, options);
  opened.push(p);
  return p;
}

/** @type {string[]} the accessibility violations a test found, page by page */
let found = [];

/**
 * Closes the test's pages; fails on any serious or critical accessibility violation, console
 * error or uncaught exception.
 */
async function closeAll() {
  const problems = opened.flatMap((p) => p.problems);
  const violations = found;
  await Promise.all(opened.map((p) => p.context.close()));
  opened = [];
  found = [];
  assert.deepEqual(violations, [], `serious or critical accessibility violations:\n${violations.join('\n')}`);
  assert.deepEqual(problems, [], `the pages logged problems:\n${problems.join('\n')}`);
}

/** @param {import('playwright-core').Page} page @param {string} name */
async function giveName(page, name) {
  await page.fill('#name-input', name);
  await page.click('#name-submit');
  await page.waitForSelector(`[data-me="${name}"]`);
}

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

// Every page on a desktop and on a phone (the layouts differ: what scrolls, what wraps).
for (const [on, device] of /** @type {[string, any][]} */ ([['', undefined], [' (phone)', PHONE]])) {
  /**
   * Audits the page and keeps what it finds: a test reports every page's violations at its
   * end, not only the first page's.
   * @param {import('playwright-core').Page} page @param {string} what
   */
  const check = async (page, what) => {
    const violations = await audit(page);
    if (violations.length) found.push(`${what}${on}:\n${format(violations)}`);
  };

  test(`the lobby and its name dialog${on}`, async () => {
    const { page } = await open('lobby', device);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('#open-games[aria-busy="false"]');
    await check(page, 'the lobby read by a visitor without a name');
    await page.click('[data-choose-name]');
    await page.waitForSelector('#name-input');
    await check(page, 'the lobby with the name dialog open');
    await giveName(page, 'Kato');
    await page.waitForSelector('#create-game');
    await check(page, 'the lobby');
    await closeAll();
  });

  test(`a game page, played and watched${on}`, async () => {
    const south = await open('south', device);
    const north = await open('north', device);
    const watcher = await open('watcher', device);
    await south.page.goto(`${server.url}/`);
    await south.page.click('[data-choose-name]');
    await giveName(south.page, 'Kato');
    await south.page.selectOption('#new-ruleset', 'omweso');
    await south.page.click('#create-game');
    const url = String(await (await south.page.waitForSelector('[data-invite]')).getAttribute('data-invite'));
    // Waiting for an opponent.
    await check(south.page, 'a game waiting for its second player');
    await north.page.goto(url);
    await north.page.click('[data-join-seat]');
    await giveName(north.page, 'Nakato');
    await watcher.page.goto(url);
    for (const p of [south.page, north.page, watcher.page]) {
      await p.waitForFunction(() => {
        const s = /** @type {any} */ (window).__omweso?.settled();
        return s && s.status === 'playing';
      });
    }
    // One move, so that the history and the last move are drawn too.
    if (device) await south.page.locator('svg[data-board] [data-legal]').first().tap();
    else await south.page.locator('svg[data-board] [data-legal]').first().click();
    await south.page.mouse.move(1, 1);
    for (const p of [south.page, north.page, watcher.page]) {
      await p.waitForFunction(() => {
        const s = /** @type {any} */ (window).__omweso?.settled();
        return s && s.history >= 1;
      });
    }
    await check(south.page, 'the game page of the player who just moved');
    await check(north.page, 'the game page of the player to move');
    await check(watcher.page, 'the game page of a spectator');
    assert.equal(await watcher.page.locator('h1').count(), 1, 'the game page has one level-one heading');
    await closeAll();
  });

  test(`the analysis board: a position, the engine's answer, a decision${on}`, async () => {
    const analyst = await open('analyst', device);
    await analyst.page.goto(`${server.url}/analysis?ruleset=mweiso`);
    // A visitor analyses without giving a name.
    await analyst.page.waitForSelector('svg[data-board] [data-legal]');
    assert.equal(await analyst.page.locator('#name-input').count(), 0, 'no name is asked to analyse');
    await check(analyst.page, 'the analysis board');
    await analyst.page.selectOption('#engine-millis', '500');
    await analyst.page.click('[data-ask-engine]');
    await analyst.page.waitForSelector('[data-engine-move]');
    // The button is enabled again: let its colour finish its transition before measuring.
    await analyst.page.waitForSelector('[data-ask-engine]:not([disabled])');
    await analyst.page.mouse.move(1, 1);
    await analyst.page.waitForTimeout(400);
    await check(analyst.page, 'the analysis board with the engine\'s answer');
    // The opening never starts clockwise (docs/rules.md#2-mweiso-kagera-murray-1951): South opens C1, North H4, then
    // South's A1' stops at the clockwise chain's decision.
    await analyst.page.click('svg[data-board] [data-pit="C1"]');
    await analyst.page.waitForSelector('svg[data-board] [data-pit="A1"][data-legal]', { state: 'detached' });
    await analyst.page.click('svg[data-board] [data-pit="H4"]');
    await analyst.page.waitForSelector('svg[data-board] [data-pit="A1\'"][data-legal]');
    await analyst.page.click('svg[data-board] [data-pit="A1\'"]');
    await analyst.page.waitForSelector('[data-choice="a"]');
    await check(analyst.page, 'the analysis board at a decision');
    assert.equal(await analyst.page.locator('h1').count(), 1, 'the analysis board has one level-one heading');
    await closeAll();
  });

  test(`a tournament being played: watched, played and directed; and the form that creates one${on}`, async () => {
    const t = await createTournament(server.url, { name: 'Kampala Open', rounds: 3, round_minutes: 10 }, 'Mukasa');
    const players = await joinPlayers(server.url, t.id, 5, { names: ['Kato', 'Nakato', 'Apio', 'Okello', 'Namono'] });
    await pairAndStart(server.url, t.id, t.director.token);

    const ready = async (/** @type {import('playwright-core').Page} */ page) => {
      // A board came through the tournament socket: the page is live.
      await page.waitForSelector('[data-tournament-id] [data-mini][data-status="playing"]');
    };

    const spectator = await open('spectator', device);
    // A visitor watches without a name.
    await spectator.page.goto(t.url);
    await ready(spectator.page);
    assert.equal(await spectator.page.locator('#name-input').count(), 0, 'a watcher is not asked for a name');
    await check(spectator.page, 'a tournament page watched by a spectator, round 1 playing');

    const player = await open('player', device);
    await signInContext(player.context, server.url, players[0]);
    await player.page.goto(t.url);
    await ready(player.page);
    await player.page.waitForSelector('#your-round a[data-go-table]');
    await check(player.page, 'a tournament page seen by a player of round 1');

    const director = await open('director', device);
    await signInContext(director.context, server.url, t.director);
    await director.page.goto(t.url);
    await ready(director.page);
    await director.page.waitForSelector('#director-console');
    await check(director.page, 'a tournament page with the director\'s console');

    const creator = await open('creator', device);
    await signInContext(creator.context, server.url, t.director);
    await creator.page.goto(`${server.url}/t/new`);
    await creator.page.waitForSelector('#create-tournament');
    await check(creator.page, 'the form that creates a tournament');
    await closeAll();
  });
}
