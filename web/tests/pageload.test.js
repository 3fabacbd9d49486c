// Each page loads only what it uses, from versioned URLs it keeps: on the real server in
// headless Chromium, the lobby requests no module of the game, tournament or analysis pages
// (nor the director's styles), every file comes compressed from /static/v/<version>/, and a
// second visit asks only for the page (answered 304) and the API: every file comes from the
// browser's cache. Any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './helpers/suite.js';
import { openPage } from './helpers/browser.js';
import { session } from './helpers/protocol.js';
import { signInContext } from './helpers/tournament.js';

const live = serverAndBrowser();

/** Modules and styles of the other pages (paths in web/): the lobby must not fetch any of them. */
const NOT_THE_LOBBYS = [
  'game/gameview.js', 'board/board.js', 'board/boardview.js', 'board/playback.js', 'game/turnpanel.js',
  'tournament/tournament.js', 'tournament/tables.js', 'director/console.js', 'tournament/tournamentform.js',
  'analysis/analysis.js', 'analysis/enginepanel.js', 'director.css',
];
/** What the lobby's page loads (paths in web/). */
const THE_LOBBYS = ['app.js', 'core/ui.js', 'lobby/lobby.js', 'core/api.js', 'core/session.js', 'lobby/gameform.js', 'style.css'];

/** A served file's path in web/, without the `/static/` or `/static/v/<version>/` prefix. @param {string} path */
function webPath(path) {
  return path.replace(/^\/static\/(v\/[0-9a-f]{16}\/)?/, '');
}

/**
 * Loads `path` in `page` until usable (`selector` visible) and quiet; the requests that went
 * to the network, with their status, encoding and whether the cache answered.
 * @param {import('playwright-core').Page} page @param {string} path @param {string} selector
 */
async function load(page, path, selector) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  /** @type {Map<string, {path: string, status: number, cached: boolean, encoding: string}>} */
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    requests.set(e.requestId, { path: new URL(e.request.url).pathname, status: 0, cached: false, encoding: '' });
  });
  // A revalidated response is reported as the cached 200; the status on the wire (304)
  // comes in the ExtraInfo event, which may arrive before or after the others.
  /** @type {Map<string, number>} */
  const onTheWire = new Map();
  cdp.on('Network.responseReceivedExtraInfo', (e) => onTheWire.set(e.requestId, e.statusCode));
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.cached = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.status = e.response.status;
    r.cached ||= Boolean(e.response.fromDiskCache);
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    r.encoding = headers['content-encoding'] || '';
  });
  await page.goto(`${live.server.url}${path}`);
  await page.locator(selector).first().waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return [...requests.entries()].map(([id, r]) => ({ ...r, status: onTheWire.get(id) ?? r.status }));
}

test('the lobby loads only its own modules, compressed and versioned; a second visit only revalidates the page', { timeout: 60000 }, async () => {
  const { context, page, problems } = await openPage(live.browser, 'lobby');
  await signInContext(context, live.server.url, await session(live.server.url, 'Kato'));

  const first = await load(page, '/', '#create-game');
  const files = first.filter((r) => r.path.startsWith('/static/'));
  const names = files.map((r) => webPath(r.path));
  for (const name of THE_LOBBYS) {
    assert.ok(names.includes(name), `the lobby loads ${name}: ${names.join(' ')}`);
  }
  for (const name of NOT_THE_LOBBYS) {
    assert.ok(!names.includes(name), `the lobby does not load ${name}: ${names.join(' ')}`);
  }
  const version = /^\/static\/v\/([0-9a-f]{16})\//.exec(files[0].path)?.[1];
  assert.ok(version, files[0].path);
  for (const r of files) {
    assert.ok(r.path.startsWith(`/static/v/${version}/`), `versioned: ${r.path}`);
    assert.equal(r.status, 200, r.path);
    // Chromium accepts brotli: every text file big enough comes in it (the icon is small).
    if (!r.path.endsWith('.svg')) assert.equal(r.encoding, 'br', r.path);
  }
  // Each module and style sheet once (the icon is both the favicon and the header's image).
  const code = names.filter((n) => !n.endsWith('.svg'));
  assert.equal(new Set(code).size, code.length, `each file once: ${names.join(' ')}`);

  // The second visit: the page revalidated (304), no file asked for again.
  const second = await load(page, '/', '#create-game');
  const document = second.find((r) => r.path === '/');
  assert.equal(document?.status, 304, JSON.stringify(second));
  const refetched = second.filter((r) => r.path.startsWith('/static/') && !r.cached);
  assert.deepEqual(refetched, [], 'every file from the cache');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the other pages still mount from their modules loaded on demand', { timeout: 60000 }, async () => {
  const { context, page, problems } = await openPage(live.browser, 'pages');
  await signInContext(context, live.server.url, await session(live.server.url, 'Nakato'));
  const analysis = await load(page, '/analysis', 'svg[data-board] .pit');
  const analysisNames = analysis.map((r) => webPath(r.path));
  assert.ok(analysisNames.includes('analysis/analysis.js'), analysisNames.join(' '));
  assert.ok(!analysisNames.some((n) => n.startsWith('director/') || n === 'tournament/tournament.js'), analysisNames.join(' '));
  const form = await load(page, '/t/new', 'form');
  const names = form.map((r) => webPath(r.path));
  assert.ok(names.includes('tournament/tournamentform.js') && names.includes('director.css'), names.join(' '));
  assert.ok(!names.some((n) => n.startsWith('director/')), `the console is only for a director: ${names.join(' ')}`);
  assert.deepEqual(problems, []);
  await context.close();
});
