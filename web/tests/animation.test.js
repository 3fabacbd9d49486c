// A whole game at the DEFAULT animation speed (no `?anim=0`), on a phone: the page plays
// random legal moves by tapping against a protocol player, and every turn is animated seed
// by seed, captures included. The page's Content-Security-Policy (`style-src 'self'`) must
// never be violated (the flying seeds were once styled through a `style` attribute), no
// console error may appear, and showing the "Skip animation" button must not move the page
// under the board.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { call, session, rng, RandomMover } from './helpers/protocol.js';
import { signInContext } from './helpers/tournament.js';

const live = serverAndBrowser();

/**
 * Records in the page, from its first script on: CSP violations, flying seeds, animations,
 * and the distance between the board and the player card under it each time the skip
 * button shows or hides.
 * @param {import('playwright-core').BrowserContext} context
 */
async function watchPage(context) {
  await context.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__csp = [];
    w.__flying = 0;
    w.__animations = 0;
    /** @type {{shown: boolean, gap: number}[]} */
    w.__skipGaps = [];
    document.addEventListener('securitypolicyviolation', (ev) => {
      w.__csp.push(`${ev.violatedDirective}: ${ev.sample || ev.blockedURI}`);
    });
    const measure = (/** @type {Element} */ skip) => {
      const wrap = document.querySelector('.board-wrap');
      const below = document.querySelector('.board-area + .player-card');
      const hover = document.querySelector('.hover-line');
      if (!wrap || !below || (hover && hover.textContent)) return;
      const gap = below.getBoundingClientRect().top - wrap.getBoundingClientRect().bottom;
      w.__skipGaps.push({ shown: !skip.hasAttribute('hidden'), gap: Math.round(gap * 10) / 10 });
    };
    new MutationObserver((records) => {
      for (const r of records) {
        const el = /** @type {Element} */ (r.target);
        if (r.type === 'attributes' && r.attributeName === 'hidden' && el.matches('[data-skip]')) measure(el);
        if (r.type === 'attributes' && r.attributeName === 'data-animating' && el.hasAttribute('data-animating')) w.__animations += 1;
        for (const n of r.addedNodes) {
          if (n instanceof Element && n.classList.contains('flying')) w.__flying += 1;
        }
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'data-animating'] });
  });
}

/**
 * Taps one of the page's offers (a decision's option or a legal start) at random; null when
 * the game is over.
 * @param {import('playwright-core').Page} page @param {() => number} random
 */
async function tapRandom(page, random) {
  const ready = await page.waitForFunction(() => {
    if (document.querySelector('[data-choice], [data-legal]')) return 'play';
    const status = /** @type {any} */ (window).__omweso?.settled()?.status;
    return status && status !== 'playing' ? 'over' : false;
  }, null, { timeout: 30000 });
  if ((await ready.jsonValue()) === 'over') return null;
  // Read in one go: the offers are drawn again when the opponent's move arrives.
  const offers = await page.evaluate(() => {
    const choices = [...document.querySelectorAll('[data-choice]')].map((el) => `[data-choice="${el.getAttribute('data-choice')}"]`);
    return choices.length ? choices : [...document.querySelectorAll('[data-legal]')].map((el) => `[data-legal][data-pit="${el.getAttribute('data-pit')}"]`);
  });
  if (!offers.length) return 'again';
  const what = offers[Math.floor(random() * offers.length)];
  try {
    await page.locator(what).tap({ timeout: 5000 });
  } catch {
    // Gone from under the finger (the game moved on): choose again.
    return 'again';
  }
  return String(what);
}

test('a whole Omweso game at the default animation speed on a phone: captures fly, no CSP violation, no layout shift', async () => {
  const { context, page, problems } = await openPage(live.browser, 'phone', PHONE);
  try {
    await watchPage(context);
    const me = await session(live.server.url, 'Kato');
    const opponent = await session(live.server.url, 'Nakato');
    await signInContext(context, live.server.url, me);
    const game = await call(live.server.url, me.token, 'POST', '/api/games', {
      ruleset: 'omweso', setup: 'outer', seat: 'first', time_control: { preset: 'casual' },
    });
    await call(live.server.url, opponent.token, 'POST', `/api/games/${game.game_id}/join`);
    const mover = new RandomMover({ baseUrl: live.server.url, gameId: game.game_id, token: opponent.token, seed: 5, thinkMs: [100, 250] }).start();
    // The default speed: no `?anim=` in the address, nothing saved.
    await page.goto(`${live.server.url}/g/${game.game_id}`);
    assert.equal(await page.locator('#anim-speed').inputValue(), 'normal');

    const random = rng(11);
    let moves = 0;
    const started = Date.now();
    for (;;) {
      const played = await tapRandom(page, random);
      if (played === null) break;
      if (played !== 'again') moves += 1;
      assert.ok(Date.now() - started < 240000, 'the game ends within four minutes');
    }
    await mover.done;
    const end = await page.waitForFunction(() => {
      const s = /** @type {any} */ (window).__omweso?.settled();
      return s && s.outcome ? s : null;
    });
    const final = await end.jsonValue();
    assert.equal(final.outcome.result, 'win', JSON.stringify(final.outcome));
    assert.ok(moves >= 3, `the page played ${moves} moves`);

    const seen = await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      return { csp: w.__csp, flying: w.__flying, animations: w.__animations, gaps: /** @type {{shown: boolean, gap: number}[]} */ (w.__skipGaps) };
    });
    assert.deepEqual(seen.csp, [], 'no Content-Security-Policy violation');
    assert.ok(seen.animations >= moves, `every turn was animated (${seen.animations} animations for ${moves} of the page's moves)`);
    assert.ok(seen.flying > 0, 'captured seeds flew');
    // The skip button showed during the animations, and the card under the board stayed
    // where it was.
    assert.ok(seen.gaps.some((g) => g.shown), `the skip button showed: ${JSON.stringify(seen.gaps)}`);
    const gaps = new Set(seen.gaps.map((g) => g.gap));
    assert.equal(gaps.size, 1, `the player card under the board moved with the skip button: ${JSON.stringify(seen.gaps)}`);
    assert.deepEqual(mover.problems, []);
    assert.deepEqual(problems, [], `the page logged problems:\n${problems.join('\n')}`);
  } finally {
    await context.close();
  }
});
