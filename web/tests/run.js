// `npm test`: every test file under node's test runner, at least two files at a time.
// Node runs one file fewer than the machine has cores, so one at a time on a 2-core
// machine such as CI's; but a browser test file spends most of its time waiting (pages
// loading over an emulated slow line, animations, the server's timers), so a second file
// beside it shortens the step by a quarter (docs/performance.md, "CI's time").

import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const concurrency = process.env.OMWESO_TEST_CONCURRENCY || String(Math.max(2, availableParallelism() - 1));
const args = ['--test', `--test-concurrency=${concurrency}`, ...(process.argv.slice(2).length ? process.argv.slice(2) : [here])];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
