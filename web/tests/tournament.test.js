// A club's Swiss tournament from start to finish, through the pages: the director creates it
// from the form at /t/new and runs it from the console; three players join from their
// browsers (one on a phone), three more over the protocol (random movers); each round is
// announced to the browser players, who follow "Go to your table" to the right seat and play
// by clicking; the director ends the round (the games are adjudicated); the players confirm
// or dispute their score sheets and the director corrects the disputed one; a spectator's
// page shows every table's moves and the standings; the standings export matches the table
// shown. Real server, headless Chromium.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './helpers/server.js';
import { launch, openPage, recordAnnouncements } from './helpers/browser.js';
import { RandomMover, call, rng, session, waitFor } from './helpers/protocol.js';
import { joinPlayers, snapshot, createTournament, signInContext } from './helpers/tournament.js';
import { assertAccessible } from './helpers/axe.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = path.resolve(here, '..', 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;
/** @type {Awaited<ReturnType<typeof openPage>>[]} */
const opened = [];
/** @type {RandomMover[]} */
const movers = [];

before(async () => {
  [server, browser] = await Promise.all([startServer(), launch()]);
});

after(async () => {
  for (const m of movers) m.stop();
  await browser?.close();
  await server?.stop();
});

/** A page in a context of its own that records what its live region announces. @param {string} label @param {any} [options] */
async function open(label, options) {
  const p = await openPage(browser, label, options);
  await recordAnnouncements(p.context);
  opened.push(p);
  return p;
}

/** @param {import('playwright-core').Page} page @param {string} name */
async function giveName(page, name) {
  await page.fill('#name-input', name);
  await page.click('#name-submit');
  await page.waitForSelector(`[data-me="${name}"]`);
}

/** Points as the page writes them (1, ½, 1½, 2.25) as a number. @param {string} text */
function points(text) {
  const t = text.trim();
  if (t === '½') return 0.5;
  if (t.endsWith('½')) return Number(t.slice(0, -1)) + 0.5;
  return Number(t);
}

/** The standings table as a page shows it. @param {import('playwright-core').Page} page */
function standingsShown(page) {
  return page.$$eval('#standings tbody tr[data-player-id]', (rows) => rows.map((tr) => {
    const cell = (/** @type {string} */ col) => tr.querySelector(`[data-col="${col}"]`);
    const nameCell = /** @type {HTMLElement} */ (cell('name'));
    // The name without the badges after it.
    const name = [...nameCell.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim();
    return {
      player_id: tr.getAttribute('data-player-id'), rank: Number(cell('rank')?.textContent), name,
      points: cell('points')?.textContent || '', buchholz: Number(cell('buchholz')?.textContent), sb: Number(cell('sb')?.textContent),
    };
  }));
}

/**
 * Waits until the page's standings are the snapshot's (rank, name, points, tiebreaks).
 * @param {import('playwright-core').Page} page @param {string} id @param {string} token @param {string} what
 */
async function standingsMatch(page, id, token, what) {
  /** @type {any[]} */
  let shown = [];
  /** @type {any[]} */
  let wanted = [];
  await waitFor(async () => {
    const snap = await snapshot(server.url, id, token);
    wanted = snap.standings.map((/** @type {any} */ s) => ({
      player_id: s.player_id, rank: s.rank, name: s.name, points: s.points,
      buchholz: Math.round(s.buchholz * 100) / 100, sb: Math.round(s.sonneborn_berger * 100) / 100,
    }));
    shown = (await standingsShown(page)).map((s) => ({ ...s, points: points(s.points) }));
    return JSON.stringify(shown) === JSON.stringify(wanted);
  }, `${what}: the standings shown to be the server's`, { timeout: 20000, every: 250 }).catch((e) => {
    assert.deepEqual(shown, wanted, e.message);
  });
  return wanted;
}

/**
 * The game as a page shows it, settled at a version above `after`, once it is the page's
 * player's turn (a pit to play or a decision to answer) or the game is over.
 * @param {import('playwright-core').Page} page @param {number} after
 * @returns {Promise<any>}
 */
async function myTurnOrEnd(page, after) {
  const handle = await page.waitForFunction((v) => {
    const s = /** @type {any} */ (window).__omweso?.settled();
    if (!s || s.version <= v) return null;
    if (s.status !== 'playing') return s;
    if (s.pending && s.to_move === s.you) return document.querySelector('[data-choice]') ? s : null;
    return document.querySelector('svg[data-board] [data-legal]') ? s : null;
  }, after, { timeout: 30000 });
  return handle.jsonValue();
}

/**
 * Plays up to `actions` random legal actions on a game page by clicking (tapping on a
 * phone): a decision's option when one waits, else a highlighted pit. Resolves with the
 * last settled state.
 * @param {import('playwright-core').Page} page @param {number} actions @param {() => number} random @param {boolean} tap
 */
async function playSome(page, actions, random, tap) {
  let state = await myTurnOrEnd(page, -1);
  for (let done = 0; done < actions && state.status === 'playing'; done++) {
    const choices = page.locator('[data-choice]');
    const count = await choices.count();
    const target = count
      ? choices.nth(Math.floor(random() * count))
      : page.locator('svg[data-board] [data-legal]').nth(Math.floor(random() * await page.locator('svg[data-board] [data-legal]').count()));
    if (tap) await target.tap();
    else {
      await target.click();
      await page.mouse.move(1, 1);
    }
    if (done + 1 < actions) state = await myTurnOrEnd(page, state.version);
  }
  return state;
}

/** The settled state of a game page once its game is over. @param {import('playwright-core').Page} page */
async function gameOver(page) {
  const handle = await page.waitForFunction(() => {
    const s = /** @type {any} */ (window).__omweso?.settled();
    return s && s.status !== 'playing' ? s : null;
  }, null, { timeout: 30000 });
  return handle.jsonValue();
}

/**
 * Checks a spectator page's boards against what watchers on the games' own sockets saw:
 * every board the page applied is the game at that version; each table's board ends at the
 * game's last version and position, on the mini-board of the right table.
 * @param {import('playwright-core').Page} page @param {any} round @param {Map<string, RandomMover>} recorders
 */
async function boardsMatch(page, round, recorders) {
  const games = round.pairings.filter((/** @type {any} */ p) => p.game_id);
  for (const p of games) {
    const rec = /** @type {RandomMover} */ (recorders.get(p.game_id));
    await rec.done;
    const last = rec.seen[rec.seen.length - 1];
    // The mini-board of that table shows the game's end.
    await page.waitForSelector(`[data-mini][data-game-id="${p.game_id}"][data-version="${last[0]}"]`, { timeout: 15000 });
    const mini = page.locator(`[data-mini][data-game-id="${p.game_id}"]`);
    assert.equal(await mini.getAttribute('data-table'), String(p.table), `game ${p.game_id} is shown at table ${p.table}`);
    assert.equal(await mini.getAttribute('data-position'), last[1], `table ${p.table} shows the game's last position`);
    assert.equal(await mini.getAttribute('data-status'), rec.status, `table ${p.table} shows the game over`);
    assert.equal(await mini.getAttribute('data-last-move') || '', rec.lastMove || '', `table ${p.table} marks the last move`);
  }
  /** @type {[string, number, string | null][]} */
  const log = await page.evaluate(() => /** @type {any} */ (window).__omwesoTournament.boardLog.slice());
  let compared = 0;
  let moves = 0;
  let movesSeen = 0;
  for (const p of games) {
    const rec = /** @type {RandomMover} */ (recorders.get(p.game_id));
    const truth = new Map(rec.seen.map(([v, position]) => [v, position]));
    const mine = log.filter(([game]) => game === p.game_id);
    for (const [, version, position] of mine) {
      assert.ok(truth.has(version), `table ${p.table}: the page shows version ${version}, which the game never had`);
      assert.equal(position, truth.get(version), `table ${p.table} at version ${version}`);
      compared += 1;
    }
    const versions = new Set(mine.map(([, v]) => v));
    moves += rec.playedVersions.length;
    movesSeen += rec.playedVersions.filter((v) => versions.has(v)).length;
  }
  return { compared, moves, movesSeen };
}

test('a Swiss of six over two rounds: created, joined, played, sheets confirmed, disputed and corrected, standings exported', { timeout: 240000 }, async (t) => {
  const random = rng(20261123);
  // ---- the director creates it from the form ----------------------------------------------
  const director = await open('director');
  director.page.on('dialog', (d) => d.accept());
  await director.page.goto(`${server.url}/t/new`);
  await giveName(director.page, 'Mukasa');
  await director.page.fill('#t-name', 'Kampala Club Swiss');
  await director.page.selectOption('#t-ruleset', 'omweso');
  await director.page.selectOption('#t-setup', 'outer');
  await director.page.selectOption('#t-system', 'swiss');
  await director.page.fill('#t-rounds', '2');
  await director.page.fill('#t-round-minutes', '10');
  // No referee count (a browser player clicking slowly keeps the turn) and no akakyala (a
  // random game lasts more than a few moves).
  await director.page.fill('#t-referee', '');
  await director.page.uncheck('#t-akakyala');
  assert.equal(await director.page.isChecked('#t-balance'), true, 'first moves are balanced by default');
  assert.equal(await director.page.inputValue('#t-points-win'), '1');
  await director.page.click('#create-tournament');
  await director.page.waitForURL(/\/t\/[0-9a-f-]{36}/);
  const id = String(/\/t\/([0-9a-f-]{36})/.exec(director.page.url())?.[1]);
  const tUrl = `${server.url}/t/${id}`;
  await director.page.waitForSelector('#director-console');
  const directorToken = String((await director.context.cookies()).find((c) => c.name === 'omweso_session')?.value);
  let snap = await snapshot(server.url, id, directorToken);
  assert.equal(snap.name, 'Kampala Club Swiss');
  assert.equal(snap.settings.rounds, 2);
  assert.equal(snap.settings.time_control.referee_seconds, null);
  assert.equal(snap.settings.time_control.akakyala, false);

  // ---- players join: three from their browsers, three over the protocol ---------------------
  const names = ['Kato', 'Nakato', 'Apio'];
  /**
   * The browser players, with their id and (once paired) this round's pairing.
   * @type {(Awaited<ReturnType<typeof open>> & {name: string, tap: boolean, id: string, pairing: any})[]}
   */
  const players = [];
  for (const [i, name] of names.entries()) {
    const p = await open(name, i === 1 ? PHONE : undefined);
    // Read without a name; joining asks for one.
    await p.page.goto(tUrl);
    if (i === 1) await p.page.tap('#join-tournament');
    else await p.page.click('#join-tournament');
    await giveName(p.page, name);
    await p.page.waitForSelector('[data-your-points]');
    players.push({ ...p, name, tap: i === 1, id: '', pairing: null });
  }
  const clients = await joinPlayers(server.url, id, 3, { names: ['Okello', 'Namono', 'Wasswa'] });
  const tokenOf = new Map(clients.map((c) => [c.player_id, c.token]));
  snap = await snapshot(server.url, id, directorToken);
  assert.deepEqual(snap.players.map((/** @type {any} */ p) => p.name), [...names, 'Okello', 'Namono', 'Wasswa']);
  const idOf = new Map(snap.players.map((/** @type {any} */ p) => [p.name, p.player_id]));
  for (const p of players) p.id = idOf.get(p.name) ?? '';
  const nameOf = new Map(snap.players.map((/** @type {any} */ p) => [p.player_id, p.name]));

  // The director's console lists them all.
  for (const p of snap.players) await director.page.waitForSelector(`[data-player-row="${p.player_id}"]`);
  const connected = await director.page.$$eval('[data-player-row]', (rows) => rows.map((r) => `${r.querySelector('th')?.textContent}=${r.getAttribute('data-connected')}`));
  t.diagnostic(`the console's presence marks (browser players have the page open): ${connected.join(', ')}`);

  // A spectator follows from the link.
  const spectator = await open('spectator');
  /** The `boards` messages the spectator's tournament socket received (several tables' boards in one). @type {any[][]} */
  const boardsFrames = [];
  spectator.page.on('websocket', (ws) => {
    if (!ws.url().includes('/ws/tournaments/')) return;
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string' || !payload.startsWith('{"t":"boards"')) return;
      boardsFrames.push(JSON.parse(payload).d.boards);
    });
  });
  await spectator.page.goto(tUrl);
  await spectator.page.waitForFunction(() => document.querySelectorAll('#standings tbody tr[data-player-id]').length === 6);
  const watcher = await session(server.url, 'Recorder');

  /**
   * Plays one round: the director pairs and starts it from the console; each browser player
   * sees it announced, checks "Go to your table" against the snapshot and follows it to the
   * right seat; protocol players move at random; the browser players play `actions` actions
   * (one resigns instead when `resign` names them); the director ends the round.
   * @param {number} number @param {{actions: number, resign?: string, screenshots?: boolean}} plan
   */
  async function playRound(number, plan) {
    await director.page.click('[data-pair-next]');
    await director.page.waitForSelector(`[data-start-round="${number}"]`);
    // Each browser player sees the pairing before the start.
    for (const p of players) {
      await p.page.waitForFunction((n) => new RegExp(`Round ${n} is paired`).test(document.getElementById('your-round')?.textContent || ''), number);
    }
    await director.page.click(`[data-start-round="${number}"]`);
    const round = await waitFor(async () => {
      const s = await snapshot(server.url, id, directorToken);
      const r = s.rounds[number - 1];
      return r && r.status === 'playing' ? r : null;
    }, `round ${number} to start`);
    const games = round.pairings.filter((/** @type {any} */ p) => p.game_id);
    /** @type {Map<string, RandomMover>} */
    const recorders = new Map();
    for (const p of games) {
      const rec = new RandomMover({ baseUrl: server.url, gameId: p.game_id, token: watcher.token, label: `recorder table ${p.table}` }).start();
      recorders.set(p.game_id, rec);
      movers.push(rec);
      for (const who of [p.first, p.second]) {
        const token = tokenOf.get(who);
        if (!token) continue;
        movers.push(new RandomMover({
          baseUrl: server.url, gameId: p.game_id, token, seed: number * 100 + p.table, thinkMs: [300, 600],
          label: `${nameOf.get(who)} at table ${p.table}`,
        }).start());
      }
    }
    // The spectator sees every table.
    for (const p of games) {
      await spectator.page.waitForSelector(`[data-mini][data-game-id="${p.game_id}"][data-table="${p.table}"]`);
    }

    // Each browser player: the announcement, the link to the table, the seat.
    for (const p of players) {
      const pairing = round.pairings.find((/** @type {any} */ q) => q.first === p.id || q.second === p.id);
      assert.ok(pairing, `${p.name} is paired in round ${number}`);
      p.pairing = pairing;
      if (!pairing.second) continue; // the bye
      const first = pairing.first === p.id;
      const opponent = nameOf.get(first ? pairing.second : pairing.first);
      const go = p.page.locator('#your-round a[data-go-table]');
      await go.waitFor();
      assert.equal(await go.getAttribute('data-go-table'), String(pairing.table), `${p.name}'s table`);
      assert.equal(await go.getAttribute('href'), `/g/${pairing.game_id}`, `${p.name}'s link opens their game`);
      const text = await go.innerText();
      assert.match(text, new RegExp(`table ${pairing.table}\\b`), `${p.name}'s link names the table: ${text}`);
      assert.ok(text.includes(String(opponent)), `${p.name}'s link names the opponent ${opponent}: ${text}`);
      assert.match(text, first ? /\bfirst\b/ : /\bsecond\b/, `${p.name}'s link says who moves first: ${text}`);
      const notice = await p.page.locator('#your-round .round-started').innerText();
      assert.match(notice, new RegExp(`Round ${number} has started: table ${pairing.table} against ${opponent}, you move ${first ? 'first' : 'second'}`), `${p.name}'s round is shown`);
      const said = await p.page.evaluate(() => /** @type {any} */ (window).__announced);
      assert.ok(said.some((/** @type {string} */ s) => s.includes(`Round ${number} has started: table ${pairing.table} against ${opponent}`) && /Go to your table/.test(s)),
        `${p.name}'s live region announced the round: ${JSON.stringify(said)}`);
    }
    if (plan.screenshots) {
      await players[1].page.screenshot({ path: path.join(ARTIFACTS, 'tournament-phone.png') });
    }
    await Promise.all(players.filter((p) => p.pairing.second).map(async (p) => {
      if (p.tap) await p.page.locator('#your-round a[data-go-table]').tap();
      else await p.page.click('#your-round a[data-go-table]');
      await p.page.waitForURL(new RegExp(`/g/${p.pairing.game_id}`));
      const state = await p.page.waitForFunction(() => {
        const s = /** @type {any} */ (window).__omweso?.settled();
        return s && s.you ? s : null;
      }).then((h) => h.jsonValue());
      assert.equal(state.you, p.pairing.first === p.id ? 's' : 'n', `${p.name} sits in the seat of the pairing (the first moves first, South)`);
    }));

    // Play: the browser players click; one resigns.
    await Promise.all(players.filter((p) => p.pairing.second).map(async (p) => {
      if (plan.resign === p.name) {
        await playSome(p.page, 1, random, p.tap);
        await p.page.click('[data-resign]');
        await p.page.click('[data-resign-confirm]');
        return gameOver(p.page);
      }
      return playSome(p.page, plan.actions, random, p.tap);
    }));
    if (plan.screenshots) await spectator.page.screenshot({ path: path.join(ARTIFACTS, 'tournament-desktop.png') });
    // The director ends the round: the unfinished games are adjudicated.
    if ((await snapshot(server.url, id, directorToken)).rounds[number - 1].status === 'playing') {
      await director.page.click(`[data-end-round="${number}"]`);
    }
    const finished = await waitFor(async () => {
      const s = await snapshot(server.url, id, directorToken);
      const r = s.rounds[number - 1];
      return r.status === 'finished' ? r : null;
    }, `round ${number} to finish`);
    for (const p of players.filter((q) => q.pairing.second)) await gameOver(p.page);
    const seen = await boardsMatch(spectator.page, finished, recorders);
    // The round's start sends every table's first board at once: one `boards` message,
    // which the page applies as each table's board (and boardsMatch found each the game's own).
    const applied = new Set((await spectator.page.evaluate(() => /** @type {any} */ (window).__omwesoTournament.boardLog.slice()))
      .map((/** @type {[string, number, string | null]} */ [game, version, position]) => `${game}@${version}:${position}`));
    const mine = boardsFrames.filter((boards) => boards.some((/** @type {any} */ b) => b.round === number));
    assert.ok(mine.length >= 1, `round ${number}: a \`boards\` message reached the spectator`);
    for (const boards of mine) {
      assert.ok(boards.length >= 2, 'a `boards` message carries two tables or more');
      assert.deepEqual(boards.map((/** @type {any} */ b) => b.table), [...boards.map((/** @type {any} */ b) => b.table)].sort((a, b) => a - b), 'in table order');
      for (const b of boards) assert.ok(applied.has(`${b.game_id}@${b.version}:${b.position}`), `table ${b.table}'s board at version ${b.version} from a \`boards\` message was applied`);
    }
    t.diagnostic(`round ${number}: the spectator's page applied ${seen.compared} boards, all the games' own; it saw ${seen.movesSeen} of ${seen.moves} moves' versions (a table's boards are sent at most four a second)`);
    // Moves come at most about three a second a table here: most arrive one by one.
    assert.ok(seen.movesSeen * 2 >= seen.moves, `the spectator saw the moves as they were played (${seen.movesSeen} of ${seen.moves})`);
    return finished;
  }

  // ---- round 1 -----------------------------------------------------------------------------
  const before = await standingsShown(spectator.page);
  const round1 = await playRound(1, { actions: 3, resign: 'Apio', screenshots: true });
  const after1 = await standingsMatch(spectator.page, id, directorToken, 'after round 1');
  assert.notDeepEqual(after1.map((s) => s.points), before.map((s) => points(s.points)), 'the standings changed');

  // The sheets: back on the tournament page, each browser player sees theirs with its 60 s.
  for (const p of players) {
    await p.page.goto(tUrl);
    if (!p.pairing.second) continue;
    await p.page.waitForSelector('#your-sheet [data-sheet-status]');
  }
  const [confirmer, disputer] = players.filter((p) => p.pairing.second);
  for (const p of [confirmer, disputer]) {
    const status = await p.page.getAttribute('#your-sheet [data-sheet-status]', 'data-sheet-status');
    assert.equal(status, 'pending', `${p.name}'s sheet waits for them`);
    const left = await p.page.waitForFunction(() => {
      const m = /confirms itself in (\d+) s/.exec(document.querySelector('#your-sheet [data-sheet-countdown]')?.textContent || '');
      return m ? Number(m[1]) : null;
    }).then(async (h) => /** @type {number} */ (await h.jsonValue()));
    assert.ok(left > 0 && left <= 60, `${p.name}'s sheet counts its 60 s down (${left} s left)`);
  }
  // The parts this test is about (a11y.test.js audits the whole pages).
  await assertAccessible(players[1].page, 'a player\'s score sheet on a phone', { include: ['#your-round'] });
  // One confirms (and so does their opponent, over the protocol): confirmed.
  await confirmer.page.click('[data-sheet-confirm]');
  const confirmerOpponent = confirmer.pairing.first === confirmer.id ? confirmer.pairing.second : confirmer.pairing.first;
  const confirmedGame = confirmer.pairing.game_id;
  if (tokenOf.has(confirmerOpponent)) {
    await call(server.url, tokenOf.get(confirmerOpponent) || '', 'POST', `/api/tournaments/${id}/sheets/${confirmedGame}`, { action: 'confirm' });
    await confirmer.page.waitForSelector('#your-sheet [data-sheet-status="confirmed"]');
  } else {
    await confirmer.page.waitForFunction(() => /You confirmed it/.test(document.querySelector('#your-sheet')?.textContent || ''));
  }
  // One disputes, with a reason.
  const reason = 'I had more seeds on my side when the round was ended';
  await disputer.page.click('[data-sheet-dispute]');
  await disputer.page.fill('#dispute-reason', reason);
  await assertAccessible(disputer.page, 'a player disputing their score sheet', { include: ['#your-round'] });
  await disputer.page.click('[data-dispute-submit]');
  await disputer.page.waitForSelector('#your-sheet [data-sheet-status="disputed"]');
  const disputedGame = disputer.pairing.game_id;
  // The director sees the dispute and corrects the sheet from the console.
  const row = director.page.locator(`[data-sheet-row="${disputedGame}"]`);
  await director.page.waitForSelector(`[data-sheet-row="${disputedGame}"][data-status="disputed"]`);
  assert.ok((await row.innerText()).includes(reason), 'the console shows the dispute\'s reason');
  const before1 = (await snapshot(server.url, id, directorToken)).rounds[0].pairings.find((/** @type {any} */ p) => p.game_id === disputedGame).sheet;
  await director.page.click(`[data-correct="${disputedGame}"]`);
  // The director changes the result: the disputer is given the win (or, had they won, the
  // game is made a draw).
  const side = disputer.pairing.first === disputer.id ? 'first' : 'second';
  const hadWon = /won$/.test(before1[`${side}_result`]);
  await director.page.selectOption('#correct-result', hadWon ? 'draw' : side);
  const correction = 'recounted at the table: the disputing player had more seeds';
  await director.page.fill('#correct-reason', correction);
  await assertAccessible(director.page, 'the director correcting a disputed sheet', { include: ['#director-console'] });
  await director.page.click(`[data-correct-submit="${disputedGame}"]`);
  await director.page.waitForSelector(`[data-sheet-row="${disputedGame}"][data-status="corrected"]`);
  await director.page.locator('#director-console').screenshot({ path: path.join(ARTIFACTS, 'director-console.png') });
  const history = director.page.locator(`[data-corrections="${disputedGame}"]`);
  await history.locator('summary').click();
  assert.ok((await history.innerText()).includes(correction), 'the console shows the correction and its reason');
  assert.ok((await history.innerText()).includes('Mukasa'), 'the console says who corrected it');
  // The player sees the correction on their sheet.
  await disputer.page.waitForSelector('#your-sheet [data-sheet-status="corrected"]');
  assert.ok((await disputer.page.locator('#your-sheet [data-correction]').innerText()).includes(correction));
  const corrected = (await snapshot(server.url, id, directorToken)).rounds[0].pairings.find((/** @type {any} */ p) => p.game_id === disputedGame).sheet;
  assert.equal(corrected.status, 'corrected');
  assert.equal(corrected.corrections.length, 1);
  assert.equal(corrected.corrections[0].reason, correction);
  assert.equal(corrected.corrections[0].by_name, 'Mukasa');
  assert.equal(corrected.corrections[0].before.first_result, before1.first_result, 'the original result is kept');
  assert.match(corrected[`${side}_result`], hadWon ? /drawn$/ : /won$/, 'the sheet now has the director\'s result');
  await standingsMatch(spectator.page, id, directorToken, 'after the correction');
  // The tables view shows the corrected result, not the game's own end.
  const firstName = (await snapshot(server.url, id, directorToken)).players.find((/** @type {any} */ p) => p.player_id === disputer.pairing.first).name;
  const shownResult = spectator.page.locator(`[data-mini][data-game-id="${disputedGame}"] [data-mini-status]`);
  await spectator.page.waitForFunction((g) => /corrected by the director/.test(document.querySelector(`[data-mini][data-game-id="${g}"] [data-mini-status]`)?.textContent || ''), disputedGame);
  const resultWords = /** @type {Record<string, string>} */ ({ won: 'won', drawn: 'drew', lost: 'lost', 'adjudicated-won': 'won on adjudication', 'adjudicated-drawn': 'drew on adjudication', 'adjudicated-lost': 'lost on adjudication' });
  const pts = (/** @type {number} */ x) => (x === 0.5 ? '½' : x === 1.5 ? '1½' : String(x));
  assert.equal(await shownResult.textContent(),
    `${firstName} ${resultWords[corrected.first_result]}: ${pts(corrected.points.first)}–${pts(corrected.points.second)} (corrected by the director)`,
    'the mini-board shows the sheet as corrected');
  assert.equal(round1.pairings.filter((/** @type {any} */ p) => p.game_id).length, 3, 'round 1 has three tables');

  // ---- round 2, shorter ---------------------------------------------------------------------
  await playRound(2, { actions: 1 });
  const final = await standingsMatch(spectator.page, id, directorToken, 'after round 2');
  snap = await snapshot(server.url, id, directorToken);
  assert.equal(snap.status, 'finished', 'two rounds played: the tournament is over');
  await spectator.page.waitForSelector('[data-tournament-status="finished"]');

  // ---- the standings export matches the table shown ---------------------------------------
  await director.page.goto(tUrl);
  const [download] = await Promise.all([
    director.page.waitForEvent('download'),
    director.page.click('a[data-export="standings.csv"]'),
  ]);
  const csv = readFileSync(String(await download.path()), 'utf8').trim().split(/\r?\n/);
  assert.equal(csv[0], 'rank,player_id,name,points,buchholz,sonneborn_berger,seeds,games,wins,draws,losses,direct,withdrawn,seed,seed_rating');
  const shown = await standingsShown(spectator.page);
  assert.equal(csv.length - 1, shown.length, 'one line per player');
  for (const [i, line] of csv.slice(1).entries()) {
    const [rank, playerId, name, pts, buchholz, sb] = line.split(',');
    const row = shown[i];
    assert.deepEqual(
      { rank: Number(rank), player_id: playerId, name, points: Number(pts), buchholz: Math.round(Number(buchholz) * 100) / 100, sb: Math.round(Number(sb) * 100) / 100 },
      { rank: row.rank, player_id: row.player_id, name: row.name, points: points(row.points), buchholz: row.buchholz, sb: row.sb },
      `standings.csv line ${i + 1} is the page's row ${i + 1}`);
  }
  assert.deepEqual(shown.map((s) => s.player_id), final.map((s) => s.player_id));

  // ---- nothing went wrong anywhere -----------------------------------------------------------
  for (const m of movers) m.stop();
  const problems = [...opened.flatMap((p) => p.problems), ...movers.flatMap((m) => m.problems)];
  const refusals = movers.flatMap((m) => m.refusals.map((r) => `${m.label}: ${r.code} ${r.message}`));
  await Promise.all(opened.map((p) => p.context.close()));
  assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  // A random player may be refused once its game ended at the round's end.
  assert.deepEqual(refusals.filter((r) => !/game_over/.test(r)), [], 'no random move was refused');
});

test('before round 1 the standings and "Rank N of M" follow every join without a reload', { timeout: 60000 }, async () => {
  const event = await createTournament(server.url, { name: 'Joining evening', ruleset: 'oware', rounds: 3 });
  const [first] = await joinPlayers(server.url, event.id, 1, { names: ['Mukasa'] });
  // A relative watching, and the first player on their phone.
  const watcher = await open('watcher', PHONE);
  const player = await open('Mukasa', PHONE);
  await signInContext(player.context, server.url, first);
  await Promise.all([watcher.page.goto(event.url), player.page.goto(event.url)]);
  await watcher.page.waitForFunction(() => document.querySelectorAll('#standings tbody tr[data-player-id]').length === 1);
  await player.page.waitForSelector('[data-your-points]');
  assert.match(await player.page.locator('[data-your-points]').innerText(), /^Rank 1 of 1\b/);
  await joinPlayers(server.url, event.id, 7, { prefix: 'Joiner' });
  await watcher.page.waitForFunction(() => document.querySelectorAll('#standings tbody tr[data-player-id]').length === 8);
  await player.page.waitForFunction(() => /^Rank 1 of 8\b/.test(document.querySelector('[data-your-points]')?.textContent || ''));
  const names = await watcher.page.$$eval('#standings tbody tr[data-player-id] [data-col="name"]', (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(names, ['Mukasa', ...Array.from({ length: 7 }, (_, i) => `Joiner-${i + 1}`)]);
  const problems = [...watcher.problems, ...player.problems];
  await Promise.all([watcher.context.close(), player.context.close()]);
  assert.deepEqual(problems, []);
});

test('at 1366 px a rated tournament\'s standings show every column; an account made from the page comes back to it', { timeout: 90000 }, async () => {
  const event = await createTournament(server.url, { name: 'Kampala Rated Evening', ruleset: 'omweso', rounds: 3, rated: true });
  const names = ['Mukasa Kizito', 'Nakato Grace', 'Kato Moses', 'Apio Esther'];
  const players = [];
  for (const [i, name] of names.entries()) {
    const made = await call(server.url, null, 'POST', '/api/account', { username: `laptop_${i}`, password: 'seeds in the outer row at dusk' });
    await call(server.url, made.token, 'PATCH', '/api/me', { name });
    await call(server.url, made.token, 'POST', `/api/tournaments/${event.id}/join`);
    players.push(made);
  }
  const [guest] = await joinPlayers(server.url, event.id, 1, { names: ['Okello Brian'] });
  // Paired: the seeds and their ratings are in the standings' last two columns.
  await call(server.url, event.director.token, 'POST', `/api/tournaments/${event.id}/rounds`);
  const laptop = await open('laptop', { viewport: { width: 1366, height: 768 } });
  await signInContext(laptop.context, server.url, guest);
  await laptop.page.goto(event.url);
  await laptop.page.waitForFunction(() => document.querySelector('#standings tbody tr [data-col="seed-rating"]')?.textContent === '1500');
  const fit = await laptop.page.evaluate(() => {
    const wrap = /** @type {HTMLElement} */ (document.getElementById('standings'));
    const rating = /** @type {HTMLElement} */ (wrap.querySelector('thead th:last-child'));
    return { scroll: wrap.scrollWidth, width: wrap.clientWidth, right: rating.getBoundingClientRect().right, page: document.documentElement.clientWidth };
  });
  assert.ok(fit.scroll <= fit.width, `the standings scroll sideways: ${JSON.stringify(fit)}`);
  assert.ok(fit.right <= fit.page, `the rating column is off the page: ${JSON.stringify(fit)}`);

  // The guest makes an account from the header's menu, and lands back on the tournament.
  await laptop.page.click('[data-account-menu] summary');
  await laptop.page.click('[data-account-link]');
  await laptop.page.waitForSelector('#signup');
  await laptop.page.fill('#signup-username', 'okello_b');
  await laptop.page.fill('#signup-password', 'seeds in the outer row at dusk');
  await laptop.page.click('#signup-submit');
  await laptop.page.check('[data-codes-written]');
  await laptop.page.click('[data-codes-done]');
  await laptop.page.waitForURL(event.url);
  await laptop.page.waitForSelector('.toast:has-text("Your account is made")');
  await laptop.page.waitForSelector('[data-me="Okello Brian"] a[href="/@/okello_b"]');
  const problems = laptop.problems;
  await laptop.context.close();
  assert.deepEqual(problems, []);
});
