// A keyboard and screen-reader player's turn: the live region says "Your turn" with the
// referee's count once each time the turn becomes theirs (not on every redraw), and focus
// on a pit just sown moves to the board (or a pit that can be played), not left on a dead
// pit.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, recordAnnouncements } from './helpers/browser.js';
import { call, session, RandomMover } from './helpers/protocol.js';
import { signInContext } from './helpers/tournament.js';

const live = serverAndBrowser();

/** What the element with focus is. @param {import('playwright-core').Page} page */
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el ? { tag: el.tagName.toLowerCase(), pit: el.getAttribute('data-pit'), tabindex: el.getAttribute('tabindex'), board: el.classList.contains('board') } : null;
  });
}

test('"Your turn" with the referee count is announced once a turn; focus leaves a sown pit for the board', async () => {
  const { context, page, problems } = await openPage(live.browser, 'keyboard');
  try {
    await recordAnnouncements(context);
    const me = await session(live.server.url, 'Kato');
    const opponent = await session(live.server.url, 'Nakato');
    await signInContext(context, live.server.url, me);
    // The tournament preset: a 3 s referee count.
    const game = await call(live.server.url, me.token, 'POST', '/api/games', {
      ruleset: 'omweso', setup: 'outer', seat: 'first', time_control: { preset: 'tournament' },
    });
    await call(live.server.url, opponent.token, 'POST', `/api/games/${game.game_id}/join`);
    const mover = new RandomMover({ baseUrl: live.server.url, gameId: game.game_id, token: opponent.token, seed: 3, thinkMs: [200, 400] }).start();
    await page.goto(`${live.server.url}/g/${game.game_id}`);

    const said = () => page.evaluate(() => /** @type {string[]} */ (/** @type {any} */ (window).__announced));
    for (let turn = 1; turn <= 2; turn++) {
      const state = await (await page.waitForFunction(() => {
        const s = /** @type {any} */ (window).__omweso?.settled();
        return s && (s.status !== 'playing' || (s.to_move === s.you && document.querySelector('.pit[data-legal]'))) ? s : null;
      }, null, { timeout: 20000 })).jsonValue();
      if (state.status !== 'playing') break;
      // Said once for this turn, with the count.
      await page.waitForFunction((n) => /** @type {any} */ (window).__announced.filter((/** @type {string} */ t) => t === 'Your turn: 3 s referee count.').length === n, turn);
      // A legal pit by the keyboard (a pit, not a clockwise control: no decision follows).
      const pit = String(await page.locator('.pit[data-legal]').first().getAttribute('data-pit'));
      await page.focus(`.pit[data-pit="${pit}"]`);
      assert.equal((await focused(page))?.pit, pit);
      await page.keyboard.press('Enter');
      await page.waitForFunction((v) => {
        const s = /** @type {any} */ (window).__omweso?.settled();
        return s && s.version > v;
      }, state.version);
      const now = await focused(page);
      assert.ok(now && (now.board || now.tabindex === '0'), `focus after sowing ${pit}: ${JSON.stringify(now)}`);
    }
    const all = await said();
    // Never said twice in a row for one turn.
    for (let i = 1; i < all.length; i++) {
      assert.ok(!(all[i] === all[i - 1] && all[i].startsWith('Your turn')), `repeated: ${all.join(' | ')}`);
    }
    mover.stop();
    assert.deepEqual(problems, [], `the page logged problems:\n${problems.join('\n')}`);
  } finally {
    await context.close();
  }
});
