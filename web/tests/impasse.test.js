// Oware's impasse on phones (docs/rules.md#3-oware-abapa): a player proposes to stop, the opponent sees the
// offer with Accept / Decline as big buttons, declines, the other proposes and the first
// accepts; a watcher sees the proposal; the result says the game ended by agreement with
// the split. Real server, real page, headless Chromium at a phone's size.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage, PHONE } from './helpers/browser.js';
import { audit, format } from './helpers/axe.js';

const live = serverAndBrowser();
const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** @param {import('playwright-core').Page} page @param {string} name */
async function signUp(page, name) {
  await page.goto(`${live.server.url}/`);
  await page.click('[data-choose-name]');
  await page.fill('#name-input', name);
  await page.click('#name-submit');
  await page.waitForSelector(`[data-me="${name}"]`);
}

/**
 * The game as the page shows it, settled at a version of at least `min`.
 * @param {import('playwright-core').Page} page @param {number} min
 * @returns {Promise<any>}
 */
async function settled(page, min) {
  const handle = await page.waitForFunction((v) => {
    const s = /** @type {any} */ (window).__omweso?.settled();
    return s && s.version >= v ? s : null;
  }, min, { timeout: 15000 });
  return handle.jsonValue();
}

/** A button's height and width in CSS pixels. @param {import('playwright-core').Locator} button */
async function size(button) {
  const box = await button.boundingBox();
  assert.ok(box, 'the button is drawn');
  return box;
}

test('an Oware player proposes to stop at an impasse on a phone; declined, then accepted', async () => {
  const south = await openPage(live.browser, 'south', PHONE);
  const north = await openPage(live.browser, 'north', PHONE);
  const watcher = await openPage(live.browser, 'watcher', PHONE);
  await signUp(south.page, 'Kato');
  await south.page.selectOption('#new-ruleset', 'oware');
  await south.page.selectOption('#new-time', 'casual');
  await south.page.selectOption('#new-seat', 'first');
  await south.page.click('#create-game');
  const url = String(await (await south.page.waitForSelector('[data-invite]')).getAttribute('data-invite'));
  await north.page.goto(url);
  await north.page.locator('[data-join-seat]').tap();
  await north.page.fill('#name-input', 'Nakato');
  await north.page.click('#name-submit');
  await settled(north.page, 2);
  await watcher.page.goto(url);
  await settled(watcher.page, 2);
  // Only the players are offered the proposal; a watcher sees nothing until one stands.
  assert.equal(await watcher.page.locator('[data-impasse-propose]').count(), 0);

  // South proposes (before any move: the players' agreement is the judgment).
  const propose = south.page.locator('[data-impasse-propose]');
  assert.equal(await propose.innerText(), 'Propose to stop (impasse)');
  assert.ok((await size(propose)).height >= 44, 'a touch target');
  await propose.tap();
  await south.page.waitForSelector('[data-impasse-standing="s"]');
  assert.match(await south.page.locator('#impasse-panel').innerText(), /You proposed to stop \(impasse\)\. Waiting for Nakato's answer/);
  await watcher.page.waitForSelector('[data-impasse-standing="s"]');
  assert.match(await watcher.page.locator('#impasse-panel').innerText(), /Kato proposed to stop \(impasse\)\. Waiting for Nakato's answer\. The 48 seeds left would be split evenly \(Kato would take 24 and Nakato 24\), ending it 24–24 on captures: a draw\./);

  // North sees the offer, with what accepting gives, and two big buttons side by side or
  // stacked on the phone's width.
  await north.page.waitForSelector('[data-impasse-offer="s"]');
  const offer = await north.page.locator('[data-impasse-offer]').innerText();
  assert.match(offer, /Kato proposes to stop: an impasse\./);
  assert.match(offer, /The 48 seeds left would be split evenly \(you would take 24 and Kato 24\), ending it 24–24 on captures: a draw\./);
  const accept = north.page.locator('[data-impasse-accept]');
  const decline = north.page.locator('[data-impasse-decline]');
  for (const button of [accept, decline]) {
    const box = await size(button);
    assert.ok(box.height >= 44 && box.width >= 300, `a big touch target: ${JSON.stringify(box)}`);
  }
  const violations = await audit(north.page, { include: ['#impasse-panel'] });
  assert.deepEqual(violations, [], `accessibility of the offer:\n${format(violations)}`);
  await north.page.locator('[data-impasse-offer]').scrollIntoViewIfNeeded();
  await north.page.screenshot({ path: path.join(ARTIFACTS, 'impasse-offer-phone.png') });
  await decline.tap();
  // Declined: play goes on, the proposal gone on every page.
  await south.page.waitForSelector('[data-impasse-propose]');
  await north.page.waitForSelector('[data-impasse-propose]');
  await watcher.page.waitForFunction(() => !document.querySelector('[data-impasse-standing]'));
  assert.equal(await north.page.locator('[data-impasse-offer]').count(), 0);

  // North proposes in turn; South accepts.
  await north.page.locator('[data-impasse-propose]').tap();
  await south.page.waitForSelector('[data-impasse-offer="n"]');
  await south.page.locator('[data-impasse-accept]').tap();
  for (const page of [south.page, north.page, watcher.page]) {
    await page.waitForSelector('[data-outcome="draw"]');
    const state = await settled(page, 6);
    assert.equal(state.status, 'finished');
    assert.equal(state.position, '0,0,0,0,0,0/0,0,0,0,0,0 s 24 24');
    const split = page.locator('[data-impasse-split]');
    assert.equal(await split.getAttribute('data-impasse-split'), '24-24');
    assert.equal(await split.innerText(), 'The game ended by agreement at an impasse (Nakato (North) proposed it): the 48 seeds left were split 24–24, and the captures decided.');
    assert.match(await page.locator('.outcome').innerText(), /A draw\s+Each player captured 24 seeds\./);
    assert.equal(await page.locator('#impasse-panel').isVisible(), false);
  }
  await south.page.screenshot({ path: path.join(ARTIFACTS, 'impasse-end-phone.png'), fullPage: true });
  const problems = [south, north, watcher].flatMap((p) => p.problems);
  await Promise.all([south, north, watcher].map((p) => p.context.close()));
  assert.deepEqual(problems, []);
});
