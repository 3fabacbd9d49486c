// A director's pairing edit before the round starts (docs/tournaments.md): a watcher's
// mini-boards follow it at once, without a reload, as the pairings table does. The second
// event day's walk found the mini-boards (the director's and a watcher's) showing the old
// opponents until a reload or the round's start. Real server, headless Chromium, default
// animation; any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage } from './helpers/browser.js';
import { call, waitFor } from './helpers/protocol.js';
import { createTournament, joinPlayers, snapshot } from './helpers/tournament.js';

const live = serverAndBrowser();

/** Each mini-board's table and its two names, as the page shows them. @param {import('playwright-core').Page} page */
function minis(page) {
  return page.$$eval('#tables [data-mini]', (els) => els.map((el) => ({
    table: Number(el.getAttribute('data-table')),
    text: (/** @type {HTMLElement} */ (el)).innerText.replace(/\s+/g, ' '),
  })));
}

test('the mini-boards follow a pairing edited before the start', async () => {
  const base = live.server.url;
  const t = await createTournament(base, { name: 'Edited pairing', ruleset: 'oware', rounds: 2 });
  const players = await joinPlayers(base, t.id, 4, { names: ['Apio', 'Okello', 'Nakato', 'Mukasa'] });
  const round = await call(base, t.director.token, 'POST', `/api/tournaments/${t.id}/rounds`);
  const name = (/** @type {string} */ id) => players.find((p) => p.player_id === id)?.name ?? '(nobody)';
  const [one, two] = round.pairings;
  const watcher = await openPage(live.browser, 'watcher');
  await watcher.page.goto(`${t.url}`);
  await watcher.page.waitForSelector('#tables [data-mini]');
  const before = await minis(watcher.page);
  assert.ok(before[0].text.includes(name(one.first)) && before[0].text.includes(name(one.second)), JSON.stringify(before));

  // The director swaps the second players of the two tables.
  const edited = [{ first: one.first, second: two.second }, { first: two.first, second: one.second }];
  await call(base, t.director.token, 'PUT', `/api/tournaments/${t.id}/rounds/1`, { pairings: edited, confirm_breach: false });
  const server = await snapshot(base, t.id, t.director.token);
  assert.deepEqual(server.rounds[0].pairings.map((/** @type {{first: string, second: string}} */ p) => [p.first, p.second]), edited.map((p) => [p.first, p.second]));
  await waitFor(async () => {
    const now = await minis(watcher.page);
    return now.length === 2
      && now[0].text.includes(name(one.first)) && now[0].text.includes(name(two.second)) && !now[0].text.includes(name(one.second))
      && now[1].text.includes(name(two.first)) && now[1].text.includes(name(one.second));
  }, 'the mini-boards to show the edited tables');
  assert.deepEqual(watcher.problems, []);
  await watcher.context.close();
});
