// The tournament for persons (issue 27): a guest made co-director through the invite code
// the director's console shows gets the console and pairs from it, and the director's
// "who did what" names them; "Give a new device" shows a player's code large with its QR
// code; a player opening the tournament in a browser that never saw it (a new device of the
// same person) is taken to their table, then to their open sheet, from the snapshot alone.
// Real server, real Chromium.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage } from './helpers/browser.js';
import { assertAccessible } from './helpers/axe.js';
import { call, session } from './helpers/protocol.js';
import { createTournament, joinPlayers, signInContext, snapshot } from './helpers/tournament.js';

const live = serverAndBrowser();

test('a guest made co-director by invite code pairs from the console, under their name', async () => {
  const t = await createTournament(live.server.url, { name: 'Shared Cup', rounds: 1 }, 'Mukasa');
  const [kato] = await joinPlayers(live.server.url, t.id, 2, { names: ['Kato', 'Nakato'] });
  const sarah = await session(live.server.url, 'Sarah');

  const director = await openPage(live.browser, 'director');
  await signInContext(director.context, live.server.url, t.director);
  await director.page.goto(t.url);
  await director.page.waitForSelector('#director-console [data-co-director-invite]');
  await director.page.click('[data-co-director-invite]');
  const codeEl = director.page.locator('[data-co-director-code]');
  await codeEl.waitFor();
  const code = /** @type {string} */ (await codeEl.getAttribute('data-co-director-code'));
  assert.match(code, /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);

  // Sarah, a guest, has no console until she enters the code.
  const guest = await openPage(live.browser, 'co-director');
  await signInContext(guest.context, live.server.url, sarah);
  await guest.page.goto(t.url);
  await guest.page.waitForSelector('#co-director-code');
  assert.equal(await guest.page.locator('#director-console').count(), 0);
  await guest.page.click('#co-director-code summary');
  await guest.page.fill('#co-director-code-input', code.toLowerCase());
  await guest.page.click('[data-co-director-accept]');
  await guest.page.waitForSelector('#director-console [data-pair-next]');
  assert.equal(await guest.page.locator('#co-director-code').isHidden(), true);
  assert.equal(await guest.page.locator('[data-co-director-row] span').textContent(), 'Sarah — co-director (you)');
  // She names nobody: only the director does.
  assert.equal(await guest.page.locator('[data-co-director-invite]').count(), 0);
  // The director's console lists her at once (the directors event).
  await director.page.waitForSelector(`[data-co-director-row="${sarah.player_id}"]`);

  // Sarah pairs round 1 from her console.
  await guest.page.click('[data-pair-next]');
  await guest.page.waitForSelector('[data-start-round="1"]');
  const snap = await snapshot(live.server.url, t.id, t.director.token);
  assert.equal(snap.rounds.length, 1);

  // The director reads who did what.
  await director.page.click('[data-director-actions-read]');
  await director.page.waitForSelector('[data-director-action="pair"]');
  assert.deepEqual(await director.page.locator('[data-director-action]').evaluateAll(
    (items) => items.map((li) => `${li.querySelector('strong')?.textContent}${li.lastChild?.textContent}`)), [
    'Mukasa created the tournament "Shared Cup"',
    'Mukasa made a co-director invite',
    'Sarah became co-director with an invite',
    'Sarah paired round 1',
  ]);

  // "Give a new device" for Kato: the code, large, and its QR code, imported as SVG.
  await director.page.click(`[data-device-code-for="${kato.player_id}"]`);
  await director.page.waitForSelector(`[data-device-code="${kato.player_id}"] .link-code-qr svg`);
  const linkCode = await director.page.locator('[data-link-code]').getAttribute('data-link-code');
  assert.match(/** @type {string} */ (linkCode), /^\w{4}-\w{4}$/);
  const said = await director.page.locator(`[data-device-code="${kato.player_id}"] p`).nth(1).textContent();
  assert.ok(said?.startsWith(`On the new device, scan the QR code, or open ${new URL(live.server.url).host}/link and enter this code`), said ?? '');
  assert.ok(said?.includes('the new device is then Kato in this tournament only, and goes straight to their table'), said ?? '');

  await assertAccessible(director.page, 'the console showing an invite code, the actions and a device code');
  await assertAccessible(guest.page, 'a co-director\'s console');

  // Removed, Sarah's console closes.
  director.page.once('dialog', (d) => d.accept());
  await director.page.click(`[data-co-director-remove="${sarah.player_id}"]`);
  await guest.page.waitForSelector('#director-console', { state: 'detached' });

  for (const p of [director, guest]) {
    assert.deepEqual(p.problems, [], p.problems.join('\n'));
    await p.context.close();
  }
});

test('a player on a browser that never saw the tournament is taken to their table, then their sheet', async () => {
  const t = await createTournament(live.server.url, { name: 'New Phone Open', rounds: 1 }, 'Mukasa');
  const [kato] = await joinPlayers(live.server.url, t.id, 2, { names: ['Kato', 'Nakato'] });
  const round = await call(live.server.url, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds`);
  const started = await call(live.server.url, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds/${round.number}/start`);
  const gameId = started.pairings[0].game_id;

  // A fresh context: nothing of the tournament in its storage, only the person's session.
  const phone = await openPage(live.browser, 'new-phone');
  await signInContext(phone.context, live.server.url, kato);
  await phone.page.goto(t.url);
  const go = phone.page.locator('[data-go-table]');
  await go.waitFor();
  assert.equal(await go.getAttribute('data-game-id'), gameId);

  // The round ends; the sheet to confirm is there, on the same page.
  await call(live.server.url, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds/1/end`);
  await phone.page.waitForSelector('#your-sheet [data-sheet-confirm]');
  // A reload (as a newly opened tab would) finds it again.
  await phone.page.reload();
  await phone.page.waitForSelector('#your-sheet [data-sheet-confirm]');
  assert.deepEqual(phone.problems, [], phone.problems.join('\n'));
  await phone.context.close();
});
