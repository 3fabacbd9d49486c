// The pages on a 390 px phone: nothing wider than the screen (no sideways scrolling) on the
// lobby, a tournament game's page and the tournament page; the header's way back to the
// tournament on one line and its "change" fully on screen; every option of the lobby's
// selects readable in full in its select.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { createTournament, joinPlayers, pairAndStart, signInContext } from './helpers/tournament.js';

const live = serverAndBrowser();

/**
 * What sticks out of a 390 px screen: the document's width, and the elements whose right
 * edge passes the screen's (the first few, to say which).
 * @param {import('playwright-core').Page} page
 */
function overflow(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > width + 0.5 && !el.closest('.table-wrap, .sr-only');
      })
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(el.getBoundingClientRect().right)}`);
    return { scrollWidth: document.documentElement.scrollWidth, width, wide };
  });
}

/** @param {import('playwright-core').Page} page @param {string} where */
async function assertFits(page, where) {
  const seen = await overflow(page);
  assert.ok(seen.scrollWidth <= 390, `${where}: the page is ${seen.scrollWidth} px wide on a 390 px screen: ${seen.wide.join(', ')}`);
  assert.deepEqual(seen.wide, [], `${where}: elements pass the right edge`);
}

test('the lobby, a tournament game and the tournament page fit a 390 px phone', async () => {
  const { id, director } = await createTournament(live.server.url, { ruleset: 'omweso', system: 'round-robin' });
  const [first, second] = await joinPlayers(live.server.url, id, 2, { names: ['Bbosa Kalanzi', 'Nakato Nansubuga'] });
  const round = await pairAndStart(live.server.url, id, director.token);
  const gameId = round.pairings[0].game_id;
  assert.match(String(gameId), /^[0-9a-f-]{36}$/);
  const { context, page, problems } = await openPage(live.browser, 'phone', PHONE);
  try {
    await signInContext(context, live.server.url, first);
    // The game page was opened from the tournament page (which remembers that).
    await context.addInitScript(([game, tournament]) => {
      localStorage.setItem(`omweso.tournament-of.${game}`, tournament);
    }, [gameId, id]);

    // The lobby, and its forms' selects: each option's words fit in the select.
    await page.goto(`${live.server.url}/`);
    await page.waitForSelector('#open-games[aria-busy="false"]');
    await assertFits(page, 'the lobby');
    const cut = await page.evaluate(() => {
      const canvas = document.createElement('canvas').getContext('2d');
      /** @type {string[]} */
      const out = [];
      for (const select of document.querySelectorAll('#app select')) {
        if (!(select instanceof HTMLSelectElement) || !canvas || select.closest('[hidden]')) continue;
        const style = getComputedStyle(select);
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        // The room for the words: the select's width less its padding and the arrow.
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
        for (const option of select.options) {
          const need = canvas.measureText(option.text).width;
          if (need > room) out.push(`#${select.id} "${option.text}": ${Math.round(need)} px in ${Math.round(room)} px`);
        }
      }
      return out;
    });
    assert.deepEqual(cut, [], 'options cut off in the lobby selects');

    // The tournament game: the header holds the brand, the way back and the name.
    await page.goto(`${live.server.url}/g/${gameId}`);
    await page.waitForSelector('[data-back-to-tournament]');
    await page.waitForFunction(() => /** @type {any} */ (window).__omweso?.settled());
    await assertFits(page, 'the tournament game');
    const header = await page.evaluate(() => {
      const box = (/** @type {string} */ sel) => {
        const el = document.querySelector(sel);
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, height: r.height, line: parseFloat(getComputedStyle(el).lineHeight) || 0 };
      };
      const el = /** @type {HTMLElement} */ (document.querySelector('.site-header'));
      return { width: el.getBoundingClientRect().width, scroll: el.scrollWidth, back: box('[data-back-to-tournament]'), change: box('[data-change-name]') };
    });
    assert.ok(header.width <= 390 && header.scroll <= 390, `the header is ${header.width} px (content ${header.scroll} px)`);
    assert.ok(header.back && header.back.height < 2 * header.back.line, `"Back to the tournament" is on one line: ${JSON.stringify(header.back)}`);
    assert.ok(header.change && header.change.right <= 390 && header.change.left >= 0, `"change" is on screen: ${JSON.stringify(header.change)}`);

    // The tournament page.
    await page.goto(`${live.server.url}/t/${id}`);
    await page.waitForSelector('#standings table');
    await assertFits(page, 'the tournament page');
    assert.deepEqual(problems, [], `the page logged problems:\n${problems.join('\n')}`);
    assert.ok(second.player_id);
  } finally {
    await context.close();
  }
});
