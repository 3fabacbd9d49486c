// Forbidden pairs chosen by name on the director's console (they were typed as player ids
// at creation, before anyone had joined): two selects of the players, "Add the pair", the
// list with "Remove"; the server keeps the list and the next pairing keeps them apart. The
// creation form no longer asks for ids. Real server, real Chromium.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage } from './helpers/browser.js';
import { call } from './helpers/protocol.js';
import { createTournament, joinPlayers, signInContext, snapshot } from './helpers/tournament.js';

const live = serverAndBrowser();

test('the director keeps two players apart by choosing their names, and lets them meet again', async () => {
  const t = await createTournament(live.server.url, { name: 'Family Cup', rounds: 1 }, 'Mukasa');
  const [kato, nakato, apio, okello] = await joinPlayers(live.server.url, t.id, 4, { names: ['Kato', 'Nakato', 'Apio', 'Okello'] });
  const { context, page, problems } = await openPage(live.browser, 'director-forbidden');
  await signInContext(context, live.server.url, t.director);
  await page.goto(t.url);
  await page.waitForSelector('#director-console [data-forbidden-none]');
  assert.equal(await page.locator('[data-forbidden-none]').textContent(), 'None: anyone may meet anyone.');
  // The selects offer the players by name.
  const offered = await page.locator('#forbid-a option').allTextContents();
  assert.deepEqual(offered, ['Choose a player', 'Kato', 'Nakato', 'Apio', 'Okello']);

  // The same player twice is refused on the page, in words.
  await page.selectOption('#forbid-a', { label: 'Kato' });
  await page.selectOption('#forbid-b', { label: 'Kato' });
  await page.click('[data-forbid-add]');
  assert.equal(await page.locator('[data-director-error="players"]').textContent(),
    'Choose two different players: a player is never paired with themselves.');

  // Kato and Nakato are family.
  await page.selectOption('#forbid-b', { label: 'Nakato' });
  await page.click('[data-forbid-add]');
  await page.waitForSelector(`[data-forbidden-pair="${kato.player_id} ${nakato.player_id}"]`);
  assert.equal(await page.locator('[data-forbidden-pair] span').allTextContents().then((x) => x.join('|')), 'Kato and Nakato');
  let snap = await snapshot(live.server.url, t.id, t.director.token);
  assert.deepEqual(snap.settings.forbidden_pairs, [[kato.player_id, nakato.player_id]]);
  // The selects are cleared for the next pair.
  assert.equal(await page.inputValue('#forbid-a'), '');

  // Apio and Okello too; then the pairing keeps both pairs apart.
  await page.selectOption('#forbid-a', { label: 'Okello' });
  await page.selectOption('#forbid-b', { label: 'Apio' });
  await page.click('[data-forbid-add]');
  await page.waitForSelector(`[data-forbidden-pair="${okello.player_id} ${apio.player_id}"]`);
  const round = await call(live.server.url, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds`);
  for (const p of round.pairings) {
    const pair = [p.first, p.second];
    assert.ok(!(pair.includes(kato.player_id) && pair.includes(nakato.player_id)), 'Kato and Nakato are kept apart');
    assert.ok(!(pair.includes(apio.player_id) && pair.includes(okello.player_id)), 'Apio and Okello are kept apart');
  }

  // Removing one lets them meet again.
  await page.click(`[data-forbidden-pair="${kato.player_id} ${nakato.player_id}"] [data-forbidden-remove]`);
  await page.waitForFunction((id) => !document.querySelector(`[data-forbidden-pair^="${id}"]`), kato.player_id);
  snap = await snapshot(live.server.url, t.id, t.director.token);
  assert.deepEqual(snap.settings.forbidden_pairs, [[okello.player_id, apio.player_id]]);

  // The creation form no longer asks for player ids.
  await page.goto(`${live.server.url}/t/new`);
  await page.waitForSelector('[data-forbidden-note]');
  assert.equal(await page.locator('#t-forbidden').count(), 0);
  // It names a federation for the TRF only when one is given: three letters.
  await page.fill('#t-name', 'Kampala Open');
  await page.fill('#t-round-minutes', '10');
  await page.fill('#t-federation', 'U1');
  await page.click('#create-tournament');
  assert.equal(await page.locator('[data-form-error]').textContent(), 'Federation: three letters, a FIDE code like UGA, or nothing.');
  await page.fill('#t-federation', 'uga');
  await page.click('#create-tournament');
  await page.waitForURL(/\/t\/[0-9a-f-]{36}/);
  const created = String(page.url().match(/\/t\/([0-9a-f-]{36})/)?.[1]);
  const made = await snapshot(live.server.url, created, t.director.token);
  assert.equal(made.settings.federation, 'UGA');
  const trf = await call(live.server.url, t.director.token, 'GET', `/api/tournaments/${created}/tournament.trf`);
  assert.match(String(trf), /^012 Kampala Open\n022 online \(omweso\)\n032 UGA\n/);

  await context.close();
  assert.deepEqual(problems, [], `the page logged problems:\n${problems.join('\n')}`);
});
