// One test file's real server and headless Chromium: started before its tests, stopped
// after them. Every browser test file needs the pair; this is the one place that makes it.

import { before, after } from 'node:test';
import { startServer } from './server.js';
import { launch } from './browser.js';

/**
 * @typedef {{server: Awaited<ReturnType<typeof startServer>>,
 *   browser: import('playwright-core').Browser}} Live
 */

/**
 * Registers the file's `before` and `after` hooks; the returned object holds the server and
 * the browser once `before` has run (read them inside tests, not at the top level).
 * @param {Parameters<typeof startServer>[0]} [options] the server's settings
 * @returns {Live}
 */
export function serverAndBrowser(options) {
  const live = /** @type {Live} */ ({});
  before(async () => {
    [live.server, live.browser] = await Promise.all([startServer(options), launch()]);
  });
  after(async () => {
    await live.browser?.close();
    // The server's own errors, in the run's output: a test that failed on a 503 says why.
    const errors = (live.server?.log() || '').split('\n').filter((line) => line.includes(' ERROR '));
    if (errors.length) console.error(`the server logged ${errors.length} error(s):\n${errors.slice(0, 20).join('\n')}`);
    await live.server?.stop();
  });
  return live;
}
