// Builds and starts the real server for the tests: `cargo build -p omweso` (or the binary
// in OMWESO_BIN), then `omweso serve` on a free port with an in-memory database.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../../..');

let built = '';

/** The omweso binary: OMWESO_BIN, or a fresh debug build. */
export function binary() {
  if (process.env.OMWESO_BIN) return process.env.OMWESO_BIN;
  if (built) return built;
  const started = Date.now();
  const result = spawnSync('cargo', ['build', '-p', 'omweso'], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`cargo build -p omweso failed (status ${result.status}):\n${result.stderr || result.error}`);
  }
  const target = process.env.CARGO_TARGET_DIR ? path.resolve(repoRoot, process.env.CARGO_TARGET_DIR) : path.join(repoRoot, 'target');
  built = path.join(target, 'debug', 'omweso');
  if (!existsSync(built)) throw new Error(`cargo build succeeded but ${built} is missing`);
  if (process.env.OMWESO_TEST_VERBOSE) console.log(`built ${built} in ${Date.now() - started} ms`);
  return built;
}

/**
 * Starts `omweso serve`; resolves once it prints its address. `env`: settings for this
 * server (`OMWESO_*` variables) over the test process's environment; `addr` and `database`
 * (default: a free port, an in-memory database) for a server restarted where it was, on
 * the same database (`sqlite://<file>?mode=rwc`).
 * @param {{env?: Record<string, string>, addr?: string, database?: string}} [options]
 * @returns {Promise<{url: string, stop: () => Promise<void>, log: () => string}>}
 */
export async function startServer(options = {}) {
  const bin = binary();
  const help = spawnSync(bin, ['serve', '--help'], { encoding: 'utf8' }).stdout || '';
  const args = ['serve', '--addr', options.addr || '127.0.0.1:0', '--database-url', options.database || 'sqlite::memory:'];
  // The metrics listener has a fixed default port; tests run several servers at once.
  if (help.includes('--metrics-addr')) args.push('--metrics-addr', 'off');
  const child = spawn(bin, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OMWESO_LOG: process.env.OMWESO_LOG || 'warn', ...options.env },
  });
  // Never leave a server behind, even when the test process dies early.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.removeListener('exit', reap));
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not say where it listens within 30 s:\n${output}`)), 30000);
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => { output += chunk.toString(); });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${output}`));
    });
  });
  child.stdout.on('data', (chunk) => { output += chunk.toString(); });
  return {
    url: String(url),
    log: () => output,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) {
        resolve();
        return;
      }
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    }),
  };
}
