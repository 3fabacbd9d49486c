#!/usr/bin/env python3
"""What logging in costs the server (docs/performance.md, "Accounts"): a release server on
an SQLite file, one account, then N log-ins one after another and N with C at once, timed
from the client; and, for scale, N `GET /api/me` (a cached session). Standard library only.

    python3 tools/login_bench.py target/release/omweso [N] [C]

Log-in hashes the password with argon2id on the blocking threads, two at a time
(people/password.rs): its cost is the hash, and at C at once the queue for the two turns.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

PASSWORD = "seeds in the outer row at dusk"


def post(base, path, body, token=None):
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read() or b"null")


def get(base, path, token):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request) as answer:
        return answer.read()


def timed(call):
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000.0


def summary(name, times_ms, wall_s):
    times = sorted(times_ms)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{name}: n={len(times)} p50={statistics.median(times):.1f} ms "
          f"p99={p99:.1f} ms max={times[-1]:.1f} ms, {len(times) / wall_s:.1f}/s")


def main():
    binary = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    concurrent = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    db = os.path.join(tempfile.mkdtemp(), "bench.db")
    server = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0", "--metrics-addr", "off",
         "--database-url", "sqlite://" + db,
         "--logins-per-ip-per-minute", "100000", "--logins-per-account-per-hour", "100000"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        line = server.stdout.readline()
        base = line.strip().removeprefix("listening on ")
        made = post(base, "/api/account", {"username": "bench", "password": PASSWORD})
        credentials = {"username": "bench", "password": PASSWORD}
        log_in = lambda: post(base, "/api/login", credentials)

        started = time.perf_counter()
        one_by_one = [timed(log_in) for _ in range(n)]
        summary("log-in, one at a time", one_by_one, time.perf_counter() - started)

        at_once = []
        lock = threading.Lock()

        def worker(count):
            for _ in range(count):
                took = timed(log_in)
                with lock:
                    at_once.append(took)

        started = time.perf_counter()
        threads = [threading.Thread(target=worker, args=(n // concurrent,)) for _ in range(concurrent)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        summary(f"log-in, {concurrent} at once", at_once, time.perf_counter() - started)

        token = made["token"]
        started = time.perf_counter()
        me = [timed(lambda: get(base, "/api/me", token)) for _ in range(n)]
        summary("GET /api/me (cached session)", me, time.perf_counter() - started)
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
