#!/usr/bin/env python3
"""Slow request bodies sent to one node about a game another node holds (issue 41, item 7):
the forwarding node's resident memory (VmRSS) before and during the attack.

Starts two nodes (`omweso serve`, the binary given) on a fresh PostgreSQL database and the
local NATS, creates a game on node a, then opens CONNECTIONS connections to node b, each
a `POST /api/games/{id}/join` whose body of BODY bytes (1 MiB by default, announced by
Content-Length, or chunked with --chunked) is sent SLICE bytes every INTERVAL seconds.
Prints node b's RSS at rest and at its peak, and how the requests were answered.

usage: tools/forwarded_bodies_bench.py [--bin target/debug/omweso] [--connections 400]
       [--body 1048576] [--chunked] [--seconds 20]
Needs psql, PostgreSQL at 127.0.0.1:5432 (trust) and NATS at 127.0.0.1:4222
(docs/security.md, the several-node rows, give what it measured).
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request

SECRET = "0" * 64


def start_node(binary, database_url, name):
    env = dict(os.environ)
    env.update(
        OMWESO_LOG="error",
        OMWESO_NATS_URL="nats://127.0.0.1:4222",
        OMWESO_NATS_USER="omweso",
        OMWESO_NATS_PASSWORD="bench",
        OMWESO_CLUSTER_SECRET=SECRET,
        OMWESO_NODE_NAME=name,
        OMWESO_SESSIONS_PER_IP_PER_MINUTE="100000",
        OMWESO_CONNECTIONS_PER_IP="100000",
    )
    process = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0", "--metrics-addr", "off",
         "--database-url", database_url],
        stdout=subprocess.PIPE, env=env, text=True)
    line = process.stdout.readline().strip()
    if not line.startswith("listening on http://"):
        sys.exit(f"{name} did not start: {line!r}")
    threading.Thread(target=lambda: process.stdout.read(), daemon=True).start()
    return process, line.removeprefix("listening on http://")


def call(base, method, path, token=None, body=None):
    request = urllib.request.Request(
        f"http://{base}{path}", method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"content-type": "application/json",
                 **({"authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def slow_post(addr, head, body, slice_bytes, interval, chunked, statuses, stop):
    host, port = addr.rsplit(":", 1)
    try:
        sock = socket.create_connection((host, int(port)))
        sock.sendall(head.encode())
        sent = 0
        sock.settimeout(interval)
        while sent < len(body) and not stop.is_set():
            piece = body[sent:sent + slice_bytes]
            if chunked:
                piece = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
            sock.sendall(piece)
            sent += slice_bytes
            try:
                answer = sock.recv(64)
                if answer:
                    statuses.append(answer.split(b"\r\n")[0].decode())
                    return
                statuses.append("closed")
                return
            except socket.timeout:
                pass
        statuses.append(f"sent {sent} bytes, no answer")
    except OSError as error:
        statuses.append(f"error: {error}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default="target/debug/omweso")
    parser.add_argument("--connections", type=int, default=400)
    parser.add_argument("--body", type=int, default=1024 * 1024)
    parser.add_argument("--slice", type=int, default=16 * 1024)
    parser.add_argument("--interval", type=float, default=0.2)
    parser.add_argument("--chunked", action="store_true")
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    database = f"bodies_{int(time.time())}"
    subprocess.run(["psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-c",
                    f"CREATE DATABASE {database}"], check=True)
    url = f"postgres://postgres@127.0.0.1:5432/{database}"
    a, a_addr = start_node(args.bin, url, "a")
    b, b_addr = start_node(args.bin, url, "b")
    try:
        south = call(a_addr, "POST", "/api/session", body={"name": "South"})["token"]
        north = call(b_addr, "POST", "/api/session", body={"name": "North"})["token"]
        game = call(a_addr, "POST", "/api/games", south, {"ruleset": "oware"})["game_id"]
        time.sleep(1)
        at_rest = rss_kib(b.pid)
        length = ("Transfer-Encoding: chunked" if args.chunked
                  else f"Content-Length: {args.body}")
        head = (f"POST /api/games/{game}/join HTTP/1.1\r\nHost: {b_addr}\r\n"
                f"Content-Type: application/json\r\nAuthorization: Bearer {north}\r\n"
                f"{length}\r\n\r\n")
        body = b" " * args.body
        statuses, stop = [], threading.Event()
        threads = [threading.Thread(
            target=slow_post,
            args=(b_addr, head, body, args.slice, args.interval, args.chunked, statuses, stop),
            daemon=True) for _ in range(args.connections)]
        for thread in threads:
            thread.start()
        peak = at_rest
        deadline = time.time() + args.seconds
        while time.time() < deadline and any(t.is_alive() for t in threads):
            peak = max(peak, rss_kib(b.pid))
            time.sleep(0.1)
        stop.set()
        for thread in threads:
            thread.join(2)
        counts = {}
        for status in statuses:
            counts[status] = counts.get(status, 0) + 1
        print(f"{args.connections} connections, {args.body} bytes each "
              f"({'chunked' if args.chunked else 'Content-Length'}), "
              f"{args.slice} bytes every {args.interval} s")
        print(f"node b RSS at rest {at_rest / 1024:.0f} MB, peak {peak / 1024:.0f} MB")
        print(f"answers: {counts}")
    finally:
        for process in (a, b):
            process.terminate()
            process.wait()
        subprocess.run(["psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-c",
                        f"DROP DATABASE {database} WITH (FORCE)"], check=False)


if __name__ == "__main__":
    main()
