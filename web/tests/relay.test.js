// A relayed table (docs/rules.md#57-over-the-board-play-and-relays), through the pages: a
// director's tournament of four, its first round with table 1 online and table 2 over the
// board; the director invites a relay for table 2 and starts the round; the relay opens the
// invite's link on a phone (360x640) and enters the wooden board's moves by tapping start
// pits and answering decisions with the page's buttons, takes back the last entry twice,
// and gets a refusal in words when there is nothing left to take back. A spectator's
// tournament page shows every entry on table 2's mini-board (its position checked against
// the game's after each), a spectator's game page follows it live and through a resumption
// (`?v=`) across an undo, and a game page opened afterwards shows the same game. Any
// console error or failed request fails the test, but for the one refusal it asks for.
// Real server, headless Chromium.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser } from './helpers/suite.js';
import { keepLinkWords, linkWords, openPage } from './helpers/browser.js';
import { call, waitFor } from './helpers/protocol.js';
import { createTournament, joinPlayers } from './helpers/tournament.js';
import { assertAccessible } from './helpers/axe.js';

const live = serverAndBrowser();

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** The phone the relay holds at the board: the smallest the page is made for. */
const SMALL_PHONE = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/**
 * The game as the server has it.
 * @param {string} token @param {string} gameId
 */
function game(token, gameId) {
  return call(live.server.url, token, 'GET', `/api/games/${gameId}`);
}

test('a relay enters a wooden board\'s game and spectators see every entry, undos included', async () => {
  const base = live.server.url;
  const { id, director } = await createTournament(base, { name: 'Hall Open', ruleset: 'omweso', setup: 'outer', rounds: 1 });
  await joinPlayers(base, id, 4, { names: ['Kato', 'Nakato', 'Apio', 'Okello'] });
  const round = await call(base, director.token, 'POST', `/api/tournaments/${id}/rounds`);
  await call(base, director.token, 'PUT', `/api/tournaments/${id}/rounds/${round.number}/played-at`, { played_at: 'board', table: 2 });
  const invite = await call(base, director.token, 'POST', `/api/tournaments/${id}/tables/${round.number}/2/relay-invite`);
  assert.match(invite.url, new RegExp(`/t/${id}/relay/${round.number}/2#code=[0-9A-Z]{8}$`));
  const started = await call(base, director.token, 'POST', `/api/tournaments/${id}/rounds/${round.number}/start`);
  const gameId = started.pairings.find((/** @type {any} */ p) => p.table === 2).game_id;
  const onlineId = started.pairings.find((/** @type {any} */ p) => p.table === 1).game_id;
  assert.ok(gameId && onlineId && gameId !== onlineId);

  // The relay's claim creates the table's game (a board table has none before): the
  // spectators come once it is there.
  const relay = await openPage(live.browser, 'relay', SMALL_PHONE);
  await relay.page.goto(invite.url.replace(/^https?:\/\/[^/]+/, base));
  // A relay gives a name (the console and the proposed sheet say who relays).
  await relay.page.fill('#name-input', 'Mukasa');
  await relay.page.click('#name-submit');
  await relay.page.waitForSelector('[data-relay-claim][data-claimed="true"]');
  const named = await call(base, director.token, 'GET', `/api/tournaments/${id}`);
  const board = named.rounds[0].pairings.find((/** @type {any} */ p) => p.table === 2).board;
  assert.equal(board.relay_name, 'Mukasa');
  assert.equal(board.relayed, true);
  assert.equal(new URL(relay.page.url()).hash, '', 'the spent code leaves the address');
  const spectator = await openPage(live.browser, 'spectator');
  await spectator.page.goto(`${base}/t/${id}`);
  const watcher = await openPage(live.browser, 'game watcher');
  await watcher.page.goto(`${base}/g/${gameId}`);
  await relay.page.waitForSelector('.relay-page [data-board] [data-legal]');
  await watcher.page.waitForSelector('[data-relayed-note]:not([hidden])');
  // Its players are at the wooden board, not "not connected" (issue 40).
  await watcher.page.waitForFunction(() => document.querySelectorAll('.player-card [data-connected="board"]').length === 2);
  assert.equal(await watcher.page.locator('.player-card [data-at-board]').count(), 2);
  assert.equal(await watcher.page.locator('.player-card .offline').count(), 0);
  await assertAccessible(relay.page, 'the relay\'s page');

  /** The relay page's game as it has it. */
  const relaySnap = () => relay.page.evaluate(() => /** @type {any} */ (window).__omwesoRelay?.snap() ?? null);
  /** Table 2's mini-board on the tournament page, and the game page's settled game. */
  const shown = async () => ({
    mini: await spectator.page.$eval('[data-mini][data-table="2"]', (el) => ({
      position: /** @type {HTMLElement} */ (el).dataset.position, version: Number(/** @type {HTMLElement} */ (el).dataset.version),
    })).catch(() => null),
    other: await spectator.page.$eval('[data-mini][data-table="1"]', (el) => /** @type {HTMLElement} */ (el).dataset.gameId).catch(() => null),
    page: await watcher.page.evaluate(() => /** @type {any} */ (window).__omweso?.settled() ?? null),
  });
  /** Every page shows the game as the server has it now. @param {string} what */
  async function everyoneSees(what) {
    const truth = await game(director.token, gameId);
    await waitFor(async () => {
      const now = await shown();
      const relayed = await relaySnap();
      return now.mini?.version === truth.version && now.mini?.position === truth.position
        && now.page?.version === truth.version && now.page.position === truth.position
        && now.page.history === truth.history.length
        && relayed?.version === truth.version && relayed.position === truth.position;
    }, `${what}: the mini-board, the game page and the relay page at version ${truth.version} (${truth.position})`, { timeout: 15000 });
    const now = await shown();
    assert.equal(now.other, onlineId, 'table 1 is the online game');
    assert.equal(now.mini?.position, truth.position, what);
    return truth;
  }

  let decisionShot = false;
  /**
   * Enters one whole move on the relay page: a tap on its start, then each answer's
   * button; the number of entries it took, and whether it stopped at a decision.
   */
  async function enterMove() {
    const before = await game(director.token, gameId);
    const side = before.to_move;
    const starts = before.legal[side].starts;
    // A start that stops at a decision when there is one (the relay answers it), else the first.
    const start = starts.find((/** @type {any} */ s) => s.decision && !s.start.includes("'")) || starts.find((/** @type {any} */ s) => !s.start.includes("'"));
    await relay.page.click(`.relay-page [data-pit="${start.start}"][data-legal]`);
    await waitFor(async () => (await relaySnap())?.version > before.version, `the relay's ${start.start}`);
    let snap = await relaySnap();
    let entries = 1;
    while (snap.pending && snap.status === 'playing') {
      entries += 1;
      // The decision's buttons on the phone, kept for a look.
      await relay.page.waitForSelector(`[data-relay-option="${snap.pending[0]}"]`);
      if (!decisionShot) {
        decisionShot = true;
        // What the relay sees: the screen, not the whole page.
        await relay.page.screenshot({ path: path.join(ARTIFACTS, 'relay-decision-360x640.png') });
      }
      const option = snap.pending[0];
      const at = snap.version;
      const button = await relay.page.$(`[data-relay-option="${option}"]`);
      if (button) await button.click();
      else await relay.page.click(`.relay-page [data-pit="${option}"][data-legal]`);
      await waitFor(async () => (await relaySnap())?.version > at, `the relay's answer ${option}`);
      snap = await relaySnap();
    }
    return { entries, decided: entries > 1 };
  }

  const start = await everyoneSees('the start');
  assert.equal(start.history.length, 0);
  // Nothing to take back yet: refused, in words, where the relay looks.
  await relay.page.click('[data-relay-undo]');
  await relay.page.waitForSelector('[data-relay-refusal]:not(:empty)');
  assert.match(await relay.page.textContent('[data-relay-refusal]') || '', /there is no entry to take back/);

  let decisions = 0;
  /** @type {any[]} the game after each move */
  const after = [];
  /** @type {number[]} the entries each move took */
  const entries = [];
  // Six moves at least, and on until one stopped at a decision the relay answered.
  while (after.length < 6 || (decisions === 0 && after.length < 16)) {
    const entered = await enterMove();
    if (entered.decided) decisions += 1;
    entries.push(entered.entries);
    after.push(await everyoneSees(`move ${after.length + 1}`));
  }
  assert.ok(decisions > 0, 'a decision was answered with the page\'s buttons');
  const moves = after.length;
  assert.equal(after[moves - 1].history.length, moves);
  assert.equal(await relay.page.textContent('[data-relay-refusal]'), '', 'a refusal is cleared by the next entry');

  // The last two moves taken back, entry by entry (an answer, then its move): each page
  // goes back exactly, each undo a new version.
  let undos = 0;
  for (const back of [1, 2]) {
    const move = moves - back;
    for (let i = 0; i < entries[move]; i++) {
      const at = (await relaySnap()).version;
      if (undos === 1) {
        // The watcher's socket is cut before the second undo: it comes back with `?v=`.
        await watcher.page.evaluate(() => /** @type {any} */ (window).__omweso.session.socket.drop());
      }
      await relay.page.click('[data-relay-undo]');
      await waitFor(async () => (await relaySnap())?.version > at, 'the undo');
      undos += 1;
      const undone = await everyoneSees(`undo ${undos}`);
      const last = i === entries[move] - 1;
      const expected = after[move - 1] || start;
      assert.equal(undone.history.length, move, `undo ${undos}`);
      assert.ok(undone.version > after[moves - 1].version, 'an undo is a new version');
      if (last) {
        assert.equal(undone.position, expected.position, `undo ${undos}`);
        assert.equal(undone.to_move, expected.to_move);
        assert.deepEqual(undone.history, expected.history);
        assert.equal(undone.pending, null);
      } else {
        assert.ok(undone.pending, `undo ${undos}: the move waits at its decision again`);
      }
    }
  }
  assert.ok(undos >= 2);
  // Entered again: the game goes on.
  await enterMove();
  const last = await everyoneSees('a move after the undos');
  assert.equal(last.history.length, moves - 1);

  // A spectator who comes now sees the same game.
  const late = await openPage(live.browser, 'late watcher');
  await late.page.goto(`${base}/g/${gameId}`);
  await waitFor(async () => {
    const settled = await late.page.evaluate(() => /** @type {any} */ (window).__omweso?.settled() ?? null);
    return settled?.position === last.position && settled.history === moves - 1;
  }, 'the late watcher\'s game page');
  // A player's own socket cannot play a relayed game: the page offers no pit.
  assert.equal(await late.page.$$eval('[data-board] [data-legal]', (els) => els.length), 0);

  // The refusal asked for is the only problem allowed: its failed request and its console line.
  const asked = (/** @type {string} */ p) => /relay\/act .*"kind":"undo".* -> .*nothing_to_undo/.test(p)
    || /Failed to load resource: the server responded with a status of 409/.test(p);
  const problems = [spectator, watcher, relay, late].flatMap((p) => p.problems);
  assert.deepEqual(problems.filter((p) => !asked(p)), []);
  assert.equal(problems.filter(asked).length <= 2, true, problems.join('\n'));
  for (const p of [spectator, watcher, relay, late]) await p.context.close();
});

test('a relay enters a free setup\'s arrangements, takes one back, and enters a resignation', async () => {
  const base = live.server.url;
  const { id, director } = await createTournament(base, { name: 'Club night', ruleset: 'omweso', setup: 'free', played_at: 'board', rounds: 1 });
  await joinPlayers(base, id, 2, { names: ['Namubiru', 'Ssali'] });
  const round = await call(base, director.token, 'POST', `/api/tournaments/${id}/rounds`);
  const started = await call(base, director.token, 'POST', `/api/tournaments/${id}/rounds/${round.number}/start`);
  const gameId = started.pairings[0].game_id;
  const invite = await call(base, director.token, 'POST', `/api/tournaments/${id}/tables/${round.number}/1/relay-invite`);

  // The relay's page without a code, before anyone relays the table: it says so and
  // waits; once the table has a relay it shows the game (entries stay the relay's).
  const early = await openPage(live.browser, 'early visitor', SMALL_PHONE);
  await early.page.goto(`${base}/t/${id}/relay/${round.number}/1`);
  await early.page.waitForFunction(() => /has no relay yet/.test(document.querySelector('[data-relay-next]')?.textContent || ''));
  const relay = await openPage(live.browser, 'relay', SMALL_PHONE);
  relay.page.on('dialog', (dialog) => dialog.accept());
  await relay.page.goto(invite.url.replace(/^https?:\/\/[^/]+/, base));
  await relay.page.fill('#name-input', 'Mukasa');
  await relay.page.click('#name-submit');
  await relay.page.waitForSelector('[data-relay-claim][data-claimed="true"]');
  const spectator = await openPage(live.browser, 'spectator');
  await spectator.page.goto(`${base}/t/${id}`);
  await early.page.waitForSelector('[data-relay-arrange][data-side="s"]:not([hidden])');

  /** The game as the server has it once its version is past `version`. @param {number} version */
  const past = (version) => waitFor(async () => {
    const g = await game(director.token, gameId);
    return g.version > version ? g : null;
  }, `the game past version ${version}`);
  /** Who the page asks to arrange, once it asks. @param {'s'|'n'} side */
  const asks = (side) => relay.page.waitForSelector(`[data-relay-arrange][data-side="${side}"]:not([hidden])`);

  await asks('s');
  let g = await game(director.token, gameId);
  assert.equal(g.status, 'setup');
  assert.equal(g.relayed, true);
  assert.equal(g.time_control.arrange_seconds, undefined, 'no arrangement limit');
  await relay.page.click('[data-arrange-preset="4 in each outer pit"]');
  g = await past(g.version);
  assert.deepEqual(g.arrangements.s, [4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0]);
  await asks('n');
  await relay.page.click('[data-arrange-preset="2 in every pit"]');
  g = await past(g.version);
  assert.equal(g.status, 'playing');
  const playing = g;
  // Taken back: North arranges again, this time typed in.
  await relay.page.click('[data-relay-undo]');
  g = await past(g.version);
  assert.equal(g.status, 'setup');
  assert.deepEqual([g.arrangements.s !== null, g.arrangements.n], [true, null]);
  assert.equal(g.position, null);
  await asks('n');
  await relay.page.click('[data-relay-arrange] summary');
  for (let i = 0; i < 16; i++) await relay.page.fill(`[data-arrange-pit="${i}"]`, '2');
  await relay.page.click('[data-arrange-send]');
  g = await past(g.version);
  assert.equal(g.status, 'playing');
  assert.equal(g.position, playing.position);
  await waitFor(async () => {
    const mini = await spectator.page.$eval('[data-mini][data-table="1"]', (el) => /** @type {HTMLElement} */ (el).dataset.position).catch(() => null);
    return mini === g.position;
  }, 'the mini-board once play began');

  // North resigns at the board: the relay enters it, and the game is over.
  await relay.page.click('.relay-resign summary');
  await relay.page.click('[data-relay-resign="n"]');
  g = await past(g.version);
  assert.equal(g.status, 'finished');
  assert.deepEqual(g.outcome, { result: 'win', winner: 's', victory: 'resigned' });
  await relay.page.waitForSelector('[data-relay-undo]', { state: 'hidden' });
  assert.match(await relay.page.textContent('[data-relay-next]') || '', /The game is over/);
  const problems = [relay, spectator, early].flatMap((p) => p.problems);
  assert.deepEqual(problems, []);
  for (const p of [relay, spectator, early]) await p.context.close();
});

test('a volunteer who cannot scan types the relay\'s code at /link, is told it is a relay\'s code, and relays the table', async () => {
  const base = live.server.url;
  const { id, director } = await createTournament(base, { name: 'Typed Code Cup', ruleset: 'omweso', setup: 'outer', rounds: 1 });
  await joinPlayers(base, id, 2, { names: ['Kato', 'Nakato'] });
  await call(base, director.token, 'POST', `/api/tournaments/${id}/rounds`);
  await call(base, director.token, 'PUT', `/api/tournaments/${id}/rounds/1/played-at`, { played_at: 'board' });
  await call(base, director.token, 'POST', `/api/tournaments/${id}/rounds/1/start`);
  const invite = await call(base, director.token, 'POST', `/api/tournaments/${id}/tables/1/1/relay-invite`);

  const volunteer = await openPage(live.browser, 'volunteer', SMALL_PHONE);
  // What the link page says on the way, kept for the test across the navigation.
  await keepLinkWords(volunteer.page);
  await volunteer.page.goto(`${base}/link`);
  // Typed as read off the director's screen, in lower case with a space.
  await volunteer.page.fill('#link-code', invite.code.toLowerCase().replace('-', ' '));
  await volunteer.page.click('#link-submit');
  await volunteer.page.waitForURL(`${base}/t/${id}/relay/1/1#code=${invite.code.replace('-', '')}`);
  assert.equal(await linkWords(volunteer.page), 'This is a relay\'s code: taking you to table 1, round 1 of Typed Code Cup, to enter its moves…');
  await volunteer.page.fill('#name-input', 'Apio');
  await volunteer.page.click('#name-submit');
  await volunteer.page.waitForSelector('[data-relay-claim][data-claimed="true"]');
  const named = await call(base, director.token, 'GET', `/api/tournaments/${id}`);
  assert.equal(named.rounds[0].pairings[0].board.relay_name, 'Apio');
  assert.deepEqual(volunteer.problems, []);
  await volunteer.context.close();
});
