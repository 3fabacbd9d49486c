// A newcomer's first minute: the lobby, a tournament and a game are read without giving a
// name (the page holds one nameless guest session for the reads that need a session, made
// once, not per page); the name is asked when the visitor acts, and focus comes back to
// what they were doing when the dialog closes. "How to play" for each game, with board
// pictures, linked from the lobby and from the game page, as is the analysis board.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage } from './helpers/browser.js';
import { call, session } from './helpers/protocol.js';
import { createTournament, joinPlayers } from './helpers/tournament.js';
import { assertAccessible } from './helpers/axe.js';

const live = serverAndBrowser();

/** Records CSP violations in the page. @param {import('playwright-core').BrowserContext} context */
async function watchCsp(context) {
  await context.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (ev) => w.__csp.push(`${ev.violatedDirective}: ${ev.sample}`));
  });
}

/** The session cookie the browser holds ('' for none). @param {import('playwright-core').BrowserContext} context */
async function sessionCookie(context) {
  return (await context.cookies()).find((c) => c.name === 'omweso_session')?.value || '';
}

test('a visitor reads the lobby, a tournament and a live game without a name; acting asks for one', async () => {
  // Something to read: an open game, a live game, a tournament.
  const host = await session(live.server.url, 'Host');
  const open = await call(live.server.url, host.token, 'POST', '/api/games', { ruleset: 'omweso', setup: 'outer', seat: 'first', time_control: { preset: 'casual' } });
  const a = await session(live.server.url, 'Apio');
  const b = await session(live.server.url, 'Bbosa');
  const liveGame = await call(live.server.url, a.token, 'POST', '/api/games', { ruleset: 'oware', setup: 'outer', seat: 'first', time_control: { preset: 'casual' } });
  await call(live.server.url, b.token, 'POST', `/api/games/${liveGame.game_id}/join`);
  const t = await createTournament(live.server.url, { name: 'Masaka Open', ruleset: 'omweso' });
  await joinPlayers(live.server.url, t.id, 2);

  const { context, page, problems } = await openPage(live.browser, 'visitor');
  try {
    await watchCsp(context);
    await page.goto(`${live.server.url}/`);
    await page.waitForSelector(`#open-games [data-game-id="${open.game_id}"]`);
    await page.waitForSelector(`#live-games [data-game-id="${liveGame.game_id}"]`);
    await page.waitForSelector(`#open-tournaments [data-tournament-row="${t.id}"]`);
    assert.equal(await page.locator('#name-input').count(), 0, 'the lobby does not ask for a name');
    assert.equal(await page.locator('[data-choose-name]').innerText(), 'Choose a name');
    assert.equal(await page.locator('[data-me]').count(), 0, 'nobody is "playing as"');
    // The page holds a nameless guest session for the lists.
    const guest = await sessionCookie(context);
    assert.match(guest, /^[0-9a-f]{64}$/);
    assert.equal(await page.evaluate(() => localStorage.getItem('omweso.session')), 'guest');
    // Learning links.
    assert.deepEqual(await page.locator('[data-howto]').evaluateAll((els) => els.map((e) => e.getAttribute('href'))),
      ['/howto/omweso', '/howto/mweiso', '/howto/oware']);
    assert.equal(await page.locator('[data-analysis-link]').getAttribute('href'), '/analysis');
    // A speed asked for in the address is carried to the analysis board.
    await page.goto(`${live.server.url}/?anim=fast`);
    await page.waitForSelector(`#open-games [data-game-id="${open.game_id}"]`);
    assert.equal(await page.locator('[data-analysis-link]').getAttribute('href'), '/analysis?anim=fast');

    // The tournament page, read as the same guest.
    await page.goto(`${live.server.url}/t/${t.id}`);
    await page.waitForFunction(() => document.querySelector('#tournament-name')?.textContent === 'Masaka Open');
    await page.waitForSelector('#join-tournament');
    assert.equal(await page.locator('#name-input').count(), 0, 'the tournament page does not ask for a name');
    assert.equal(await page.locator('[data-player-id]').count() >= 2, true, 'the players are listed');

    // The live game, watched.
    await page.goto(`${live.server.url}/g/${liveGame.game_id}`);
    const watched = await (await page.waitForFunction(() => /** @type {any} */ (window).__omweso?.settled())).jsonValue();
    assert.equal(watched.you, null, 'a watcher has no seat');
    assert.equal(watched.status, 'playing');
    assert.equal(await page.locator('#name-input').count(), 0, 'the game page does not ask for a name');
    assert.equal(await page.locator('[data-howto-link]').getAttribute('href'), '/howto/oware');
    assert.equal(await page.locator('[data-howto-link]').innerText(), 'How to play Oware');
    // One session for the whole visit, not one per page.
    assert.equal(await sessionCookie(context), guest, 'the same guest session all along');

    // Acting asks for the name: creating a game. Declining (Escape) brings focus back to
    // the button; then the name is given and the game is made.
    await page.goto(`${live.server.url}/`);
    await page.waitForSelector('#create-game');
    await page.focus('#create-game');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#name-input');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'name-input');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#name-input', { state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'create-game', 'focus is back on the button that asked');
    await page.click('#create-game');
    await page.fill('#name-input', 'Kato');
    await page.click('#name-submit');
    await page.waitForSelector('[data-invite]');
    await page.waitForSelector('[data-me="Kato"]');
    const named = await sessionCookie(context);
    assert.notEqual(named, guest, 'a named session replaces the guest one');
    assert.equal(await page.evaluate(() => localStorage.getItem('omweso.session')), '1');

    const csp = await page.evaluate(() => /** @type {any} */ (window).__csp);
    assert.deepEqual(csp, []);
    assert.deepEqual(problems, [], `the page logged problems:\n${problems.join('\n')}`);
  } finally {
    await context.close();
  }
});

test('choosing a name from the header returns focus to the main content, not to <body>', async () => {
  const { context, page, problems } = await openPage(live.browser, 'visitor');
  try {
    await page.goto(`${live.server.url}/`);
    await page.click('[data-choose-name]');
    await page.fill('#name-input', 'Nakato');
    await page.press('#name-input', 'Enter');
    await page.waitForSelector('[data-me="Nakato"]');
    // The button that asked is gone (the header now says who is playing): the main content.
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'app');
    assert.deepEqual(problems, [], `the page logged problems:\n${problems.join('\n')}`);
  } finally {
    await context.close();
  }
});

test('how to play each game: plain words, board pictures with marked pits, accessible', async () => {
  const { context, page, problems } = await openPage(live.browser, 'reader');
  try {
    await watchCsp(context);
    /** @type {Record<string, {title: string, boards: number, pits: Record<string, number>, marks: Record<string, string[]>}>} */
    const expected = {
      omweso: {
        title: 'How to play Omweso', boards: 4,
        // The worked example (docs/rules.md 1.6), before the turn: the second picture.
        pits: { E1: 4, H2: 4, H3: 5, H4: 1, A4: 5 },
        marks: { 'pic-from': ['E1'], 'pic-to': ['H2'], 'pic-taken': ['H3', 'H4'] },
      },
      mweiso: {
        title: 'How to play Mweiso', boards: 2,
        pits: { A1: 2, D1: 2, H4: 2 },
        marks: { 'pic-reverse': ['A1', 'B2'] },
      },
      oware: {
        title: 'How to play Oware', boards: 2,
        pits: { C1: 5, E2: 1, F2: 2 },
        marks: { 'pic-from': ['C1'], 'pic-to': ['E2'], 'pic-taken': ['E2', 'F2'] },
      },
    };
    for (const [game, want] of Object.entries(expected)) {
      await page.goto(`${live.server.url}/howto/${game}`);
      await page.waitForSelector('.howto-page h1');
      assert.equal(await page.locator('h1').innerText(), want.title);
      assert.equal(await page.title(), `${want.title} — Omweso`);
      assert.equal(await page.locator(`.howto-nav a[aria-current="page"]`).getAttribute('href'), `/howto/${game}`);
      const boards = page.locator('.howto-figure svg.board');
      assert.equal(await boards.count(), want.boards, `${game}: pictures`);
      assert.equal(await page.locator('.howto-figure figcaption').count(), want.boards, `${game}: every picture has a caption`);
      // The picture with the marks: its pits' counts and marks are the rules' example.
      const pictured = game === 'omweso' ? boards.nth(1) : boards.nth(game === 'mweiso' ? 0 : 1);
      for (const [pit, n] of Object.entries(want.pits)) {
        assert.equal(await pictured.locator(`[data-pit="${pit}"]`).getAttribute('data-count'), String(n), `${game} ${pit}`);
      }
      for (const [mark, pits] of Object.entries(want.marks)) {
        const marked = await pictured.locator(`.pit.${mark}`).evaluateAll((els) => els.map((e) => e.getAttribute('data-pit')).sort());
        assert.deepEqual(marked, [...pits].sort(), `${game}: ${mark}`);
      }
      assert.ok((await page.locator('.howto-part h2').allInnerTexts()).includes('The referee’s count'), `${game}: the referee count is explained`);
      await assertAccessible(page, `how to play ${game}`);
    }
    // An unknown game: a choice of the three.
    await page.goto(`${live.server.url}/howto/chess`);
    await page.waitForSelector('.howto-nav');
    assert.equal(await page.locator('.howto-nav a').count(), 3);
    assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).__csp), []);
    assert.deepEqual(problems, [], `the page logged problems:\n${problems.join('\n')}`);
  } finally {
    await context.close();
  }
});
