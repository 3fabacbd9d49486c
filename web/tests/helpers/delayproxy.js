// A TCP proxy that delays every byte by a fixed time in each direction, as a slow mobile
// line does (300 ms round trip: 150 ms each way). Order is kept: each chunk leaves
// `oneWayMs` after it arrived, never before the chunk ahead of it. Used to test the page
// and the referee as a player on 3G gets them, with the real server behind it.

import net from 'node:net';

/**
 * Starts a proxy on 127.0.0.1 (a free port) to `target` (an http:// URL).
 * @param {string} target @param {number} oneWayMs
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
export async function startDelayProxy(target, oneWayMs) {
  const { hostname, port } = new URL(target);
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => { client.destroy(); upstream.destroy(); });
    }
    pipeDelayed(client, upstream, oneWayMs);
    pipeDelayed(upstream, client, oneWayMs);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {net.AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    stop: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/**
 * Copies `from` to `to`, each chunk `delayMs` after it arrived; an end is delayed the same.
 * @param {net.Socket} from @param {net.Socket} to @param {number} delayMs
 */
function pipeDelayed(from, to, delayMs) {
  /** @type {{at: number, chunk: Buffer | null}[]} */
  const queue = [];
  let timer = /** @type {ReturnType<typeof setTimeout> | null} */ (null);
  const drain = () => {
    timer = null;
    const now = Date.now();
    while (queue.length && queue[0].at <= now) {
      const { chunk } = /** @type {{at: number, chunk: Buffer | null}} */ (queue.shift());
      if (chunk === null) to.end();
      else if (!to.destroyed) to.write(chunk);
    }
    if (queue.length) timer = setTimeout(drain, queue[0].at - now);
  };
  const push = (/** @type {Buffer | null} */ chunk) => {
    queue.push({ at: Date.now() + delayMs, chunk });
    if (!timer) timer = setTimeout(drain, delayMs);
  };
  from.on('data', (chunk) => push(chunk));
  from.on('end', () => push(null));
}
