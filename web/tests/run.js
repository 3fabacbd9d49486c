// The browser suite as `npm test` runs it: the files two at a time, then the ones that time
// the server or the page against a clock one at a time, alone on the machine.
//
// A browser test file spends most of its time waiting on its page, so two at a time take
// about two thirds of the time one at a time does (docs/performance.md). Two files cannot
// share the CPU with a second browser: `fair_count` times the referee's 3-second count
// against what a page on a slow line shows, and `tournament_load` measures a watcher's page
// keeping up with a hundred moves a second. Run beside another file's browser, the first
// once waited 120 s for a turn (docs/performance.md, "Browser files two at a time").
//
// `node tests/run.js [FILE...]` runs the files given (by path) the same way.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files that run alone, after the others. */
const ALONE = ['fair_count.test.js', 'tournament_load.test.js'];
/** How many of the other files run at once. */
const AT_ONCE = 2;

const here = dirname(fileURLToPath(import.meta.url));
const asked = process.argv.slice(2);
const files = asked.length > 0
  ? asked
  : readdirSync(here).filter((name) => name.endsWith('.test.js')).sort().map((name) => join(here, name));
const alone = files.filter((file) => ALONE.includes(basename(file)));
const others = files.filter((file) => !ALONE.includes(basename(file)));

/**
 * Runs `node --test` on `batch`, `concurrency` files at once; whether every test passed.
 * @param {string[]} batch @param {number} concurrency
 */
function run(batch, concurrency) {
  if (batch.length === 0) return true;
  const ran = spawnSync(
    process.execPath,
    ['--test', `--test-concurrency=${concurrency}`, ...batch],
    { stdio: 'inherit' },
  );
  if (ran.error) console.error(`could not run node --test: ${ran.error.message}`);
  return ran.status === 0;
}

// Both batches run even when the first fails, so that one run reports every failure.
const othersPassed = run(others, AT_ONCE);
const alonePassed = run(alone, 1);
process.exit(othersPassed && alonePassed ? 0 : 1);
