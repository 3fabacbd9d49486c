// Omweso's free setup on a phone, under the arrangement limit (docs/rules.md#11-setup), through the
// real server and the real page with its Content-Security-Policy: South arranges with
// taps only (move seeds from pit to pit, take one out, add one), watching their time count
// down; North sees South's arrangement and their own time, lets it run out, is given the
// outer row, and play starts. No console error, no CSP violation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { call, session } from './helpers/protocol.js';
import { signInContext } from './helpers/tournament.js';

const live = serverAndBrowser();

/** The number of seeds the page shows in `pit`. @param {import('playwright-core').Page} page @param {string} pit */
async function count(page, pit) {
  return Number(await page.getAttribute(`[data-pit="${pit}"]`, 'data-count'));
}

test('arranging with taps on a phone, and a second player whose time runs out', async () => {
  const [south, north] = await Promise.all([session(live.server.url, 'Kato'), session(live.server.url, 'Nakato')]);
  // 20 s each (and the 1 s allowance): long enough for South's taps on a loaded machine.
  const created = await call(live.server.url, south.token, 'POST', '/api/games',
    { ruleset: 'omweso', setup: 'free', seat: 'first', time_control: { preset: 'tournament', arrange_seconds: 20 } });
  const id = created.game_id;
  await call(live.server.url, north.token, 'POST', `/api/games/${id}/join`);

  const pages = [];
  for (const s of [south, north]) {
    const p = await openPage(live.browser, s.name, PHONE);
    await signInContext(p.context, live.server.url, s);
    await p.page.addInitScript(() => {
      /** @type {string[]} */
      const violations = [];
      /** @type {any} */ (window).__csp = violations;
      document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    pages.push(p);
  }
  const [sp, np] = pages.map((p) => p.page);
  await sp.goto(`${live.server.url}/g/${id}`);
  await sp.waitForSelector('[data-arrange]');
  // South's own time counts down from when they came.
  await sp.waitForFunction(() => /^You have 0:\d\d left to arrange/.test(document.querySelector('[data-arrange-clock]')?.textContent || ''));
  await sp.waitForSelector('[data-clock="s"].running');
  // The touch targets are a finger's size.
  for (const sel of ['[data-arrange-tool="move"]', '[data-arrange-tool="add"]', '[data-arrange-tool="take"]', '[data-arrange-submit]']) {
    const box = await sp.locator(sel).boundingBox();
    assert.ok(box && box.height >= 44, `${sel} is ${box?.height} px high`);
  }
  // The start to edit from is the outer row (nothing saved in this browser yet).
  await sp.waitForSelector('[data-arrange-total="32"]');
  assert.equal(await sp.getAttribute('[data-arrange-tool="move"]', 'aria-pressed'), 'true', 'moving seeds is the first tool');
  // Move: tap A1 (picked), then A2 twice and B2 once: three seeds leave A1.
  await sp.tap('[data-pit="A1"]');
  await sp.waitForSelector('[data-pit="A1"].picked');
  await sp.tap('[data-pit="A2"]');
  await sp.waitForSelector('[data-pit="A2"][data-count="1"]');
  await sp.tap('[data-pit="A2"]');
  await sp.waitForSelector('[data-pit="A2"][data-count="2"]');
  await sp.tap('[data-pit="B2"]');
  await sp.waitForSelector('[data-pit="B2"][data-count="1"]');
  assert.equal(await count(sp, 'A1'), 1);
  // Tapping the picked pit puts it down.
  await sp.tap('[data-pit="A1"]');
  await sp.waitForSelector('[data-pit="A1"]:not(.picked)');
  // Take one from H1, add one to H2.
  await sp.tap('[data-arrange-tool="take"]');
  await sp.tap('[data-pit="H1"]');
  await sp.waitForSelector('[data-arrange-total="31"]');
  assert.equal(await sp.isDisabled('[data-arrange-submit]'), true, 'Done waits for all 32 seeds');
  await sp.tap('[data-arrange-tool="add"]');
  await sp.tap('[data-pit="H2"]');
  await sp.waitForSelector('[data-arrange-total="32"]');
  // North comes before South is done: they see South's time, not the editor.
  await np.goto(`${live.server.url}/g/${id}`);
  await np.waitForFunction(() => /^Kato has 0:\d\d left to arrange\.$/.test(document.querySelector('[data-arrange-clock]')?.textContent || ''));
  assert.equal(await np.locator('[data-arrange]').count(), 0);
  await sp.tap('[data-arrange-submit]');

  // North sees South's arrangement and their own time; they let it run out.
  await np.waitForSelector('[data-arrange]');
  await np.waitForSelector('[data-pit="A2"][data-count="2"]');
  await np.waitForFunction(() => /^You have 0:[12]\d left to arrange/.test(document.querySelector('[data-arrange-clock]')?.textContent || ''));
  await sp.waitForFunction(() => /^Nakato has 0:\d\d left to arrange\.$/.test(document.querySelector('[data-arrange-clock]')?.textContent || ''));
  // The referee places the outer row for North (21 s after South's arrangement) and play
  // starts, South to move; North is told why.
  await np.waitForFunction(() => /time to arrange ran out/.test(document.getElementById('toasts')?.textContent || ''), null, { timeout: 30000 });
  for (const page of [sp, np]) {
    await page.waitForFunction(() => /** @type {any} */ (window).__omweso?.settled()?.status === 'playing', null, { timeout: 10000 });
  }
  const snap = await call(live.server.url, south.token, 'GET', `/api/games/${id}`);
  assert.equal(snap.status, 'playing');
  assert.equal(snap.position, '4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/2,1,0,0,0,0,0,1/1,4,4,4,4,4,4,3 s');
  await sp.waitForSelector('[data-pit][data-legal]');

  const problems = pages.flatMap((p) => p.problems);
  const csp = (await Promise.all([sp, np].map((p) => p.evaluate(() => /** @type {any} */ (window).__csp)))).flat();
  for (const p of pages) await p.context.close();
  assert.deepEqual(problems, [], `the pages logged problems:\n${problems.join('\n')}`);
  assert.deepEqual(csp, []);
});
