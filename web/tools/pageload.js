// Page load on a slow phone's line, measured in Chromium: the DevTools Protocol's network
// emulation (Network.emulateNetworkConditions: 300 ms latency, 400 kbit/s down, 200 kbit/s
// up) on the lobby (`/`), a spectator's game page (`/g/<id>` of a running game) and a
// tournament page (`/t/<id>` of a running tournament), each fresh (a new browser context:
// empty cache) and warm (a second page in the same context: its cache kept).
//
// "Usable" is the moment, counted from the navigation's start (performance.timeOrigin), at
// which the page's content is in the DOM and visible (has a box), behind any dialog:
//   lobby:       the "Create game" button (#create-game);
//   game:        the board's SVG pits (svg[data-board] .pit), all of them;
//   tournament:  a table's mini board (#tables [data-mini]).
// The visitor has a session already (cookie and the page's flag), so that no page waits on
// the name prompt: the measure is of the page's loading, not of typing a name.
//
// Usage (from the repository's root): node web/tools/pageload.js [--runs N] [--bin PATH] [--json FILE]
// Without --bin (or OMWESO_BIN) it builds and uses the release binary (cargo build --release).

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, repoRoot } from '../tests/helpers/server.js';
import { launch } from '../tests/helpers/browser.js';
import { call, session } from '../tests/helpers/protocol.js';
import { createTournament, joinPlayers, pairAndStart, signInContext } from '../tests/helpers/tournament.js';

/** The line: 300 ms round trip, 400 kbit/s down, 200 kbit/s up (bytes a second). */
const LINE = { offline: false, latency: 300, downloadThroughput: 400000 / 8, uploadThroughput: 200000 / 8 };
/** A page that is not usable after this is reported as such. */
const GIVE_UP_MS = 60000;

/** What makes each page usable: a selector whose every match must have a box. */
const USABLE = /** @type {const} */ ({
  lobby: '#create-game',
  game: 'svg[data-board] .pit',
  tournament: '#tables [data-mini]',
});

/** @param {string[]} argv */
function options(argv) {
  const out = { runs: 3, bin: process.env.OMWESO_BIN || '', json: '' };
  for (let i = 0; i < argv.length; i++) {
    const next = () => {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${argv[i - 1]} needs a value`);
      return value;
    };
    if (argv[i] === '--runs') out.runs = Number(next());
    else if (argv[i] === '--bin') out.bin = path.resolve(next());
    else if (argv[i] === '--json') out.json = next();
    else throw new Error(`unknown argument ${argv[i]} (--runs N, --bin PATH, --json FILE)`);
  }
  if (!Number.isInteger(out.runs) || out.runs < 1) throw new Error('--runs takes a positive whole number');
  return out;
}

/** The release binary, built now. */
function releaseBinary() {
  const result = spawnSync('cargo', ['build', '--release', '-p', 'omweso'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('cargo build --release -p omweso failed');
  const target = process.env.CARGO_TARGET_DIR ? path.resolve(repoRoot, process.env.CARGO_TARGET_DIR) : path.join(repoRoot, 'target');
  return path.join(target, 'release', 'omweso');
}

/**
 * Runs in the page before its own scripts: notes when the usable selector first matches
 * only elements with a box.
 * @param {string} selector
 */
function watchUsable(selector) {
  const check = () => {
    const all = document.querySelectorAll(selector);
    if (!all.length) return false;
    for (const el of all) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return false;
    }
    /** @type {any} */ (window).__usableAt = performance.now();
    return true;
  };
  const observer = new MutationObserver(() => {
    if (check()) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
}

/**
 * One visit to `url` in `context` on the emulated line: the requests, their bytes and the
 * time until usable.
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} url
 * @param {string} selector
 */
async function visit(context, url, selector) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', LINE);
  /** @type {Map<string, {url: string, status: number, cached: boolean, bytes: number}>} */
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    requests.set(e.requestId, { url: e.request.url, status: 0, cached: false, bytes: 0 });
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
    if (e.response.fromDiskCache || e.response.fromPrefetchCache) r.cached = true;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
  });
  await page.addInitScript(watchUsable, selector);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => /** @type {any} */ (window).__usableAt !== undefined, null, { timeout: GIVE_UP_MS, polling: 100 });
  const usableMs = await page.evaluate(() => /** @type {any} */ (window).__usableAt);
  // When the last of the page's files (scripts, styles, icon) had arrived: what is left
  // until usable is the page's own API calls and socket.
  const filesMs = await page.evaluate(() => Math.max(0, ...performance.getEntriesByType('resource')
    .filter((e) => new URL(e.name).pathname.startsWith('/static/'))
    .map((e) => /** @type {PerformanceResourceTiming} */ (e).responseEnd)));
  // Whatever the page still loads after it is usable (the lists, late modules) is counted too.
  await page.waitForLoadState('networkidle').catch(() => {});
  const all = [...requests.entries()].map(([id, r]) => ({ ...r, status: onTheWire.get(id) ?? r.status }));
  const network = all.filter((r) => !r.cached);
  await page.close();
  return {
    usableMs: Math.round(usableMs),
    filesMs: Math.round(filesMs),
    requests: network.length,
    fromCache: all.length - network.length,
    notModified: network.filter((r) => r.status === 304).length,
    bytes: network.reduce((sum, r) => sum + r.bytes, 0),
    urls: network.map((r) => `${r.status} ${r.bytes} ${new URL(r.url).pathname}`),
  };
}

/**
 * A running game between two new sessions, and a running tournament of four players (its
 * first round started).
 * @param {string} baseUrl
 */
async function fixtures(baseUrl) {
  const south = await session(baseUrl, 'South');
  const north = await session(baseUrl, 'North');
  const game = await call(baseUrl, south.token, 'POST', '/api/games', { ruleset: 'omweso', setup: 'outer' });
  await call(baseUrl, north.token, 'POST', `/api/games/${game.game_id}/join`);
  const tournament = await createTournament(baseUrl, { name: 'Pageload Open', rounds: 2 });
  await joinPlayers(baseUrl, tournament.id, 4, { prefix: 'Load' });
  await pairAndStart(baseUrl, tournament.id, tournament.director.token);
  return { gamePath: game.url, tournamentPath: `/t/${tournament.id}` };
}

async function main() {
  const opts = options(process.argv.slice(2));
  process.env.OMWESO_BIN = opts.bin || releaseBinary();
  process.env.OMWESO_SESSIONS_PER_IP_PER_MINUTE = '1000';
  const [server, browser] = await Promise.all([startServer(), launch()]);
  /** @type {any[]} */
  const results = [];
  try {
    const { gamePath, tournamentPath } = await fixtures(server.url);
    const pages = /** @type {const} */ ([['lobby', '/'], ['game', gamePath], ['tournament', tournamentPath]]);
    for (let run = 1; run <= opts.runs; run++) {
      for (const [name, pagePath] of pages) {
        const context = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true });
        await signInContext(context, server.url, await session(server.url, `Visitor ${run}`));
        for (const visitKind of ['fresh', 'warm']) {
          const result = await visit(context, `${server.url}${pagePath}`, USABLE[name]);
          results.push({ run, page: name, visit: visitKind, ...result });
          console.log(`run ${run} ${name.padEnd(10)} ${visitKind.padEnd(5)} usable ${String(result.usableMs).padStart(5)} ms (files by ${String(result.filesMs).padStart(5)} ms), `
            + `${String(result.requests).padStart(2)} requests (${result.notModified} not modified, ${result.fromCache} from cache), `
            + `${(result.bytes / 1000).toFixed(1)} kB`);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log('\nmedian of the runs:');
  console.log('| page | visit | usable (ms) | files loaded by (ms) | requests | kB transferred |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const name of Object.keys(USABLE)) {
    for (const visitKind of ['fresh', 'warm']) {
      const these = results.filter((r) => r.page === name && r.visit === visitKind);
      const median = (/** @type {(r: any) => number} */ f) => {
        const sorted = these.map(f).sort((a, b) => a - b);
        return sorted[Math.floor(sorted.length / 2)];
      };
      console.log(`| ${name} | ${visitKind} | ${median((r) => r.usableMs)} | ${median((r) => r.filesMs)} | ${median((r) => r.requests)} | ${(median((r) => r.bytes) / 1000).toFixed(1)} |`);
    }
  }
  if (opts.json) writeFileSync(opts.json, JSON.stringify(results, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
