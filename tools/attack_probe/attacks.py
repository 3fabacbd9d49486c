"""The attacks of issue 41, each with the probe game beside it.

usage: attacks.py [--bin ../../target/release/omweso] [--rest 10] 1 2 6 9 10 11 12 13 14 15 3 4

Each attack runs on its own server (a copy of WORK/seed.sqlite, made by seed.py), the probe
game playing a move every 100 ms from 127.0.0.1; attackers use other 127.0.0.x addresses.
Prints and saves WORK/results/<finding>-<time>.json.
"""

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import socket
import string
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from lib import (WORK, Client, Probe, RssSampler, Server, copy_db, now,  # noqa: E402
                 rest_window, summary)

SEED = os.path.join(WORK, "seed.sqlite")
PASSWORD = "violet mangoes under a quiet bridge 41"


def ip(n):
    return f"127.0.{n // 250}.{n % 250 + 2}" if n >= 250 else f"127.0.0.{n + 2}"


# ---------------------------------------------------------------- visitors' latency

async def socket_open_ms(client, gid):
    """Time from opening a game's socket to its first `state`."""
    t0 = now()
    try:
        ws = await client.ws(f"/ws/games/{gid}")
        try:
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if m["t"] == "state":
                    return now() - t0
        finally:
            await ws.close()
    except Exception:  # noqa: BLE001
        return None


class Visitor:
    """Another visitor: an analysis call every 0.5 s and a finished game's socket opened
    every 2 s (a different finished game each time), their latencies recorded."""

    def __init__(self, server, games, address="127.0.0.250"):
        self.server, self.games, self.address = server, list(games), address
        self.analysis = []   # (t, seconds, status)
        self.sockets = []    # (t, seconds or None)
        self._stop = False

    async def setup(self):
        self.c = Client(self.server, self.address)
        await self.c.new_session("Visitor")

    async def _analysis(self):
        body = {"ruleset": "oware", "position": "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0"}
        while not self._stop:
            t = now()
            try:
                st, _, dt, _ = await self.c.call("POST", "/api/analysis/legal", body)
            except Exception:  # noqa: BLE001
                st, dt = "exc", now() - t
            self.analysis.append((t, dt, st))
            await asyncio.sleep(max(0, 0.5 - (now() - t)))

    async def _sockets(self):
        i = 0
        while not self._stop:
            t = now()
            gid = self.games[i % len(self.games)]
            i += 1
            self.sockets.append((t, await socket_open_ms(self.c, gid)))
            await asyncio.sleep(max(0, 2 - (now() - t)))

    def start(self):
        self.tasks = [asyncio.ensure_future(self._analysis()), asyncio.ensure_future(self._sockets())]
        return self

    async def stop(self):
        self._stop = True
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.c.close()

    def window(self, t0, t1):
        a = [x[1] for x in self.analysis if t0 <= x[0] < t1]
        bad = [x[2] for x in self.analysis if t0 <= x[0] < t1 and x[2] != 200]
        s = [x[1] for x in self.sockets if t0 <= x[0] < t1 and x[1] is not None]
        fail = sum(1 for x in self.sockets if t0 <= x[0] < t1 and x[1] is None)
        return {"analysis_legal": summary(a), "analysis_not_200": bad[:10],
                "finished_game_socket": summary(s), "socket_failures": fail}


# ---------------------------------------------------------------- finding 1

def tag_names():
    first = string.ascii_letters
    rest = string.ascii_letters + string.digits + "_"
    for n in itertools.count(1):
        for head in first:
            for tail in itertools.product(rest, repeat=n - 1):
                yield head + "".join(tail)


def evil_tags(limit=262144 - 64):
    parts, size = [], len('{"text":""}')
    for name in tag_names():
        cost = len(name) + 7  # [name \"\"]
        if size + cost > limit:
            break
        parts.append(f'[{name} ""]')
        size += cost
    return "".join(parts), len(parts)


async def attack_1(ctx):
    server, seed = ctx["server"], ctx["seed"]
    text, ntags = evil_tags()
    body = json.dumps({"text": text})
    ordinary = "[Ruleset \"oware\"]\n[Result \"*\"]\n\n1. C1 2. F2 *\n"
    attackers = [Client(server, ip(10 + i), timeout=120) for i in range(4)]
    for a in attackers:
        await a.new_session()
    # one request alone first: its cost
    st, ans, single, _ = await attackers[0].call("POST", "/api/analysis/read-game", raw=body)
    single_res = {"status": st, "ms": round(single * 1000, 1),
                  "answer": (ans if isinstance(ans, str) else json.dumps(ans))[:200]}
    results = []

    async def one(k):
        a = attackers[k % 4]
        try:
            st, ans, dt, _ = await a.call("POST", "/api/analysis/read-game", raw=body)
        except Exception as e:  # noqa: BLE001
            st, dt = repr(e), None
        results.append((st, dt))

    t0 = now()
    tasks = []
    for k in range(31):
        tasks.append(asyncio.ensure_future(one(k)))
        await asyncio.sleep(40 / 31)
    await asyncio.gather(*tasks)
    t1 = now()
    # also: many at once from the 4 sessions (the queue's bounds)
    burst = []

    async def burst_one(k):
        st, _, dt, _ = await attackers[k % 4].call("POST", "/api/analysis/read-game", raw=body)
        burst.append(st)
    await asyncio.gather(*(burst_one(k) for k in range(40)))
    for a in attackers:
        await a.close()
    statuses = {}
    for st, _ in results:
        statuses[str(st)] = statuses.get(str(st), 0) + 1
    lat = [dt for _, dt in results if dt is not None]
    return {
        "attack": f"{ntags} distinct tags, {len(body)} bytes JSON body; one alone, then 31 requests from 4 guest sessions (4 addresses) over 40 s, then 40 at once",
        "single_request": single_res,
        "statuses": statuses, "attack_request_latency": summary(lat),
        "burst_40_statuses": {str(s): burst.count(s) for s in set(burst)},
        "window": (t0, t1),
    }


# ---------------------------------------------------------------- finding 2

def strong(n):
    return f"quiet river stones {n} under amber lanterns {random.randint(1000, 9999)}"


async def attack_2(ctx):
    server = ctx["server"]
    owner = Client(server, ip(40))
    user = f"victim{random.randint(1000, 9999)}"
    pw0 = strong(0)
    st, acct, _, _ = await owner.call("POST", "/api/account", {"username": user, "password": pw0})
    assert st == 201, (st, acct)
    owner.token = acct["token"]
    codes = acct["recovery_codes"]
    out = {"account": user}
    t0 = now()
    statuses = {"login": [], "recovery": []}

    async def wrong_login(k):
        a = Client(server, ip(41 + k // 15))
        st, b, _, _ = await a.call("POST", "/api/login", {"username": user, "password": f"wrong guess {k} abc"})
        statuses["login"].append(st)
        await a.close()

    async def fake_code(k):
        a = Client(server, ip(43 + k // 16))
        code = "".join(random.choice("0123456789abcdefghjkmnpqrstvwxyz") for _ in range(16))
        st, b, _, _ = await a.call("POST", "/api/login/recovery",
                                   {"username": user, "code": code, "password": strong(99)})
        statuses["recovery"].append(st)
        await a.close()

    await asyncio.gather(*(wrong_login(k) for k in range(30)), *(fake_code(k) for k in range(31)))
    out["attack_seconds"] = round(now() - t0, 2)
    out["attack_statuses"] = {k: {str(s): v.count(s) for s in set(v)} for k, v in statuses.items()}
    # the owner, right after
    pw1 = strong(1)
    st, b, dt, _ = await owner.call("PUT", "/api/account/password", {"current": pw0, "password": pw1})
    out["owner_password_change_signed_in"] = {"status": st, "body": b, "ms": round(dt * 1000)}
    # the owner's own device (its mark cookie), logging in again
    owner.token = None
    st, b, dt, _ = await owner.call("POST", "/api/login", {"username": user, "password": pw1})
    out["owner_login_marked_device"] = {"status": st, "error": (b or {}).get("error") if isinstance(b, dict) else b, "ms": round(dt * 1000)}
    # a recovery with a valid code, from a new device and another address
    r = Client(server, ip(45))
    pw2 = strong(2)
    st, b, dt, _ = await r.call("POST", "/api/login/recovery", {"username": user, "code": codes[0], "password": pw2})
    out["owner_recovery_valid_code_new_device"] = {"status": st, "error": (b or {}).get("error") if isinstance(b, dict) else b, "ms": round(dt * 1000)}
    # a log-in from a brand-new device (no mark): documented to be held back
    n = Client(server, ip(46))
    st, b, dt, _ = await n.call("POST", "/api/login", {"username": user, "password": pw2})
    out["owner_login_new_unmarked_device"] = {"status": st, "error": (b or {}).get("error") if isinstance(b, dict) else b, "ms": round(dt * 1000)}
    # the recovered device (marked by the recovery) logging in again
    r.token = None
    st, b, dt, _ = await r.call("POST", "/api/login", {"username": user, "password": pw2})
    out["owner_login_device_marked_by_recovery"] = {"status": st, "error": (b or {}).get("error") if isinstance(b, dict) else b}
    for c in (owner, r, n):
        await c.close()
    out["attack"] = "30 wrong log-ins (2 addresses x 15) + 31 fake recovery codes (2 addresses x 16, 1 x ...) at once on one username, then the owner"
    return out


# ---------------------------------------------------------------- finding 6

async def attack_6(ctx):
    server, seed = ctx["server"], ctx["seed"]
    c = Client(server, ip(60))
    st, page, dt, size = await c.call("GET", "/api/players/heavy")
    first = {"status": st, "ms": round(dt * 1000, 1), "bytes": size,
             "games_listed": len(page.get("games", [])) if isinstance(page, dict) else None,
             "results": page.get("results") if isinstance(page, dict) else page}
    expected = {"won": seed["heavy_won"], "lost": seed["heavy_lost"]}
    naddr = int(ctx["params"].get("addresses", 8))
    clients = [Client(server, ip(61 + i)) for i in range(naddr)]
    lat, statuses = [], {}
    t0 = now()
    end = t0 + ctx.get("duration", 40)
    while now() < end:
        tb = now()

        async def one(cl):
            st, _, dt, _ = await cl.call("GET", "/api/players/heavy")
            statuses[str(st)] = statuses.get(str(st), 0) + 1
            if st == 200:
                lat.append(dt)
        await asyncio.gather(*(one(cl) for cl in clients for _ in range(16)))
        await asyncio.sleep(max(0, 8 - (now() - tb)))
    t1 = now()
    for cl in clients + [c]:
        await cl.close()
    return {"attack": f"{naddr} addresses each 16 player pages of `heavy` at once, every 8 s (each address at its 120 a minute), 40 s",
            "heavy_games_in_store": seed["heavy_games"] + 5, "expected_results": expected,
            "page_alone": first, "page_latency_under_attack": summary(lat), "statuses": statuses,
            "window": (t0, t1)}


# ---------------------------------------------------------------- finding 9

async def slow_body(addr_ip, host, port, path, length, stats, stop, trickle=1.0, hold=30, token=None):
    try:
        r, w = await asyncio.wait_for(asyncio.open_connection(host, port, local_addr=(addr_ip, 0)), 30)
    except Exception as e:  # noqa: BLE001
        stats["connect_fail"] = stats.get("connect_fail", 0) + 1
        return
    try:
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        w.write((f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n{auth}"
                 f"Content-Length: {length}\r\n\r\n").encode())
        await w.drain()
        read = asyncio.ensure_future(r.read(200))
        sent = 0
        t0 = now()
        while not stop.is_set() and now() - t0 < hold and sent < length - 1:
            done, _ = await asyncio.wait({read}, timeout=trickle)
            if done:
                break
            w.write(b" ")
            sent += 1
            await w.drain()
        if read.done():
            head = read.result()
            m = re.match(rb"HTTP/1.1 (\d+)", head or b"")
            k = m.group(1).decode() if m else ("closed" if not head else "other")
        else:
            k = "still open"
            read.cancel()
        stats[k] = stats.get(k, 0) + 1
    except Exception as e:  # noqa: BLE001
        k = type(e).__name__
        stats[k] = stats.get(k, 0) + 1
    finally:
        w.close()


async def attack_9(ctx):
    server = ctx["server"]
    host, port = server.base.rsplit(":", 1)
    port = int(port)
    c = Client(server, ip(90))
    await c.new_session()
    st, g, _, _ = await c.call("POST", "/api/games", {"ruleset": "oware"})
    path = f"/api/games/{g['game_id']}/join"
    out = {}
    sampler = RssSampler(server).start()
    runs = []
    for label, naddr, per, length, route in [
        ("8 addresses x 2000 connections, 64 KiB bodies, a byte a second", 8, 2000, 65536, path),
        ("40 addresses x 40 connections, 256 KiB bodies to read-game, a byte a second", 40, 40, 262144, "/api/analysis/read-game"),
    ]:
        stats, stop = {}, asyncio.Event()
        rss0 = server.rss_mb()
        t0 = now()
        tasks = []
        tokens = []
        for a in range(naddr):
            cl = Client(server, ip(91 + a))
            await cl.new_session()
            tokens.append(cl.token)
            await cl.close()
        rss0 = server.rss_mb()
        t0 = now()
        for a in range(naddr):
            for k in range(per):
                tasks.append(asyncio.ensure_future(slow_body(ip(91 + a), host, port, route, length, stats, stop, hold=25, token=tokens[a])))
            await asyncio.sleep(0.05)
        peak = rss0
        while not all(t.done() for t in tasks) and now() - t0 < 40:
            peak = max(peak, server.rss_mb() or 0)
            await asyncio.sleep(0.2)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        runs.append({"run": label, "rss_before_mb": round(rss0, 1), "rss_peak_mb": round(peak, 1),
                     "answers": stats, "window": (t0, now())})
        await asyncio.sleep(3)
    out["runs"] = runs
    out["rss"] = await sampler.stop()
    await c.close()
    out["window"] = (runs[0]["window"][0], runs[-1]["window"][1])
    out["attack"] = "slow bodies (Content-Length announced, 1 byte a second, up to 25 s) from many connections and addresses"
    return out


async def attack_9b(ctx):
    """The server's body budget held by 32 addresses x 8 announced 256 KiB bodies that never
    come (each reopened when the request limit closes it), 40 s; meanwhile another visitor
    (a fresh address) makes ordinary small POSTs."""
    server = ctx["server"]
    host, port = server.base.rsplit(":", 1)
    port = int(port)
    naddr, per = int(ctx["params"].get("addresses", 32)), int(ctx["params"].get("per", 8))
    duration = float(ctx["params"].get("seconds", 40))
    tokens = []
    for a in range(naddr):
        cl = Client(server, ip(91 + a))
        await cl.new_session()
        tokens.append(cl.token)
        await cl.close()
    held = {}
    stop = asyncio.Event()

    async def holder(a):
        while not stop.is_set():
            try:
                r, w = await asyncio.open_connection(host, port, local_addr=(ip(91 + a), 0))
                w.write((f"POST /api/analysis/read-game HTTP/1.1\r\nHost: {server.base}\r\n"
                         f"Content-Type: application/json\r\nAuthorization: Bearer {tokens[a]}\r\n"
                         f"Content-Length: 262144\r\n\r\n").encode())
                await w.drain()
                try:
                    head = await asyncio.wait_for(r.read(100), duration + 5)
                except asyncio.TimeoutError:
                    head = b""
                k = head[9:12].decode(errors="replace") if head else "none"
                held[k] = held.get(k, 0) + 1
                w.close()
            except Exception as e:  # noqa: BLE001
                held[type(e).__name__] = held.get(type(e).__name__, 0) + 1
                await asyncio.sleep(0.2)
    visitor = Client(server, ip(240))
    await visitor.new_session("Bystander")
    checks = []
    t0 = now()
    tasks = [asyncio.ensure_future(holder(a)) for a in range(naddr) for _ in range(per)]
    await asyncio.sleep(1)
    fresh = Client(server, ip(241))
    first = {}
    st, b, _, _ = await fresh.call("POST", "/api/session", {"name": "Newcomer"})
    first["POST /api/session (newcomer)"] = (st, (b or {}).get("error") if isinstance(b, dict) else b)
    st, b, _, _ = await visitor.call("POST", "/api/games", {"ruleset": "oware"})
    first["POST /api/games"] = (st, (b or {}).get("error") if isinstance(b, dict) else b)
    st, b, _, _ = await fresh.call("POST", "/api/login", {"username": "heavy", "password": PASSWORD})
    first["POST /api/login (right password)"] = (st, (b or {}).get("error") if isinstance(b, dict) else b)
    while now() - t0 < duration:
        st, b, dt, _ = await visitor.call("POST", "/api/analysis/legal",
                                          {"ruleset": "oware", "position": "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0"})
        checks.append((round(now() - t0, 1), st))
        await asyncio.sleep(0.5)
    t1 = now()
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await visitor.close()
    await fresh.close()
    sts = [s for _, s in checks]
    return {"attack": f"{naddr} addresses x {per} connections announcing 256 KiB bodies to read-game (with a session), sending nothing, reopened when closed, {duration:.0f} s; a bystander's small POSTs",
            "bystander_first_calls": first,
            "bystander_analysis_statuses": {str(s): sts.count(s) for s in set(sts)},
            "bystander_timeline": checks[:8] + checks[-4:],
            "holders_answered": held, "window": (t0, t1)}


# ---------------------------------------------------------------- finding 10

def strip_comments(ogn):
    return re.sub(r"\{[^}]*\}", "", ogn)


async def attack_10(ctx):
    server, seed = ctx["server"], ctx["seed"]
    c = Client(server, ip(100), timeout=120)
    await c.new_session()
    out = {}
    # 87,000 moves in 256 KiB (the file), moves with no numbers
    moves = ["A1", "B1", "C1", "D1", "E1", "F1", "A2", "B2", "C2", "D2", "E2", "F2"]
    text = "[Ruleset \"oware\"]\n[Result \"*\"]\n\n" + " ".join(moves[i % 12] for i in range(87000)) + " *\n"
    body = json.dumps({"text": text})
    rss0 = server.rss_mb()
    sampler = RssSampler(server, 0.05).start()
    st, ans, dt, size = await c.call("POST", "/api/analysis/read-game", raw=body)
    r = await sampler.stop()
    out["file_87000_moves"] = {"body_bytes": len(body), "status": st, "ms": round(dt * 1000, 1), "answer_bytes": size,
                               "answer": (json.dumps(ans) if not isinstance(ans, str) else ans)[:200],
                               "rss_before_mb": round(rss0, 1), "rss_peak_mb": r["rss_peak_mb"]}
    # the largest file it does read: the probe's real games (finished or being played,
    # exported) repeated to 50,000 moves
    ogn_games = []
    for gid in ctx["probe"].games[-6:]:
        async with c.http.get(f"http://{server.base}/api/games/{gid}/export?format=ogn", headers=c.headers()) as resp:
            if resp.status == 200:
                g = strip_comments(await resp.text())
                if len(re.findall(r"\d+\.\s", g)) >= 20:
                    ogn_games.append(g)
    if ctx["params"].get("dense", "1") == "1":
        # tags other than Ruleset and Result and the move numbers left out: more moves a byte
        dense = []
        for g in ogn_games:
            result = re.search(r'\[Result "([^"]*)"\]', g).group(1)
            movetext = re.sub(r"\[[^\]]*\]", "", g)
            movetext = re.sub(r"\d+\.", "", movetext)
            movetext = " ".join(movetext.split())
            dense.append(f'[Ruleset "oware"][Result "{result}"]\n{movetext}\n')
        ogn_games = dense
    out["games_from_probe"] = len(ogn_games)
    if ogn_games:
        parts, nmoves, size = [], 0, 0
        i = 0
        while True:
            g = ogn_games[i % len(ogn_games)]
            gm = len(re.findall(r"\b[A-F][12]\b", g))
            if nmoves + gm > 50000 or size + len(g) + 200 > 250000 or len(parts) >= 200:
                break
            parts.append(g)
            nmoves += gm
            size += len(json.dumps(g))
            i += 1
        big = json.dumps({"text": "\n".join(parts)})
        rss0 = server.rss_mb()
        sampler = RssSampler(server, 0.05).start()
        st, ans, dt, size = await c.call("POST", "/api/analysis/read-game", raw=big)
        r = await sampler.stop()
        out["largest_legal_file"] = {"games": len(parts), "moves": nmoves, "body_bytes": len(big), "status": st,
                                     "ms": round(dt * 1000, 1), "answer_bytes": size,
                                     "rss_before_mb": round(rss0, 1), "rss_peak_mb": r["rss_peak_mb"],
                                     "answer": (json.dumps(ans) if not isinstance(ans, str) else ans)[:160]}
        # 100 in flight from 25 addresses
        clients = [Client(server, ip(101 + i), timeout=120) for i in range(25)]
        for cl in clients:
            await cl.new_session()
        rss0 = server.rss_mb()
        sampler = RssSampler(server, 0.05).start()
        statuses = []
        t0 = now()

        async def one(cl):
            st, _, dt, size = await cl.call("POST", "/api/analysis/read-game", raw=big, parse=False)
            statuses.append((st, dt))
        await asyncio.gather(*(one(cl) for cl in clients for _ in range(4)))
        t1 = now()
        r = await sampler.stop()
        sts = [s for s, _ in statuses]
        out["in_flight_100"] = {"statuses": {str(s): sts.count(s) for s in set(sts)},
                                "latency_200": summary([d for s, d in statuses if s == 200]),
                                "rss_before_mb": round(rss0, 1), "rss_peak_mb": r["rss_peak_mb"],
                                "seconds": round(t1 - t0, 1)}
        # sustained: each of the 25 addresses keeps 4 in flight for 20 s
        rss0 = server.rss_mb()
        sampler = RssSampler(server, 0.1).start()
        cpu0 = server.cpu_seconds()
        sts2 = []
        t2 = now()

        async def loop(cl):
            while now() - t2 < 20:
                st, _, dt, _ = await cl.call("POST", "/api/analysis/read-game", raw=big, parse=False)
                sts2.append(st)
                if st != 200:
                    await asyncio.sleep(0.05)
        await asyncio.gather(*(loop(cl) for cl in clients for _ in range(4)))
        t3 = now()
        r = await sampler.stop()
        out["sustained_20s"] = {"statuses": {str(s): sts2.count(s) for s in set(sts2)},
                                "rss_before_mb": round(rss0, 1), "rss_peak_mb": r["rss_peak_mb"],
                                "server_cpu_s": round(server.cpu_seconds() - cpu0, 1)}
        out["window"] = (t2, t3)
        for cl in clients:
            await cl.close()
    await c.close()
    out["attack"] = "one 256 KiB file of 87,000 moves; the largest legal file (real games to 50,000 moves); 100 of the latter in flight from 25 addresses"
    return out


# ---------------------------------------------------------------- finding 11

async def attack_11(ctx):
    server, seed = ctx["server"], ctx["seed"]
    gid = seed["finished"][0]
    c = Client(server, ip(110))
    await c.new_session()
    errors0 = server.log_lines(r"ERROR")
    spect_closed = []
    spect = []

    async def spectator(k):
        cl = Client(server, ip(111 + k // 10))
        await cl.new_session()
        try:
            ws = await cl.ws(f"/ws/games/{gid}")
            try:
                async for _ in ws:
                    pass
            except Exception:  # noqa: BLE001
                pass
            spect_closed.append((ws.close_code, ws.close_reason))
        except Exception as e:  # noqa: BLE001
            spect_closed.append(("open failed", repr(e)[:100]))
        finally:
            await cl.close()
    statuses = {}
    t0 = now()
    stop = now() + 20
    tasks = []
    n = 0
    cpu0 = server.cpu_seconds()

    async def joiner():
        nonlocal n
        while now() < stop:
            st, b, _, _ = await c.call("POST", f"/api/games/{gid}/join", {})
            statuses[str(st)] = statuses.get(str(st), 0) + 1
            n += 1
    async def socket_joiner():
        k = 0
        while now() < stop:
            try:
                ws = await c.ws(f"/ws/games/{gid}")
                await asyncio.wait_for(ws.recv(), 10)
                await ws.close()
                k += 1
            except Exception:  # noqa: BLE001
                await asyncio.sleep(0.05)
        return k
    jt = [asyncio.ensure_future(joiner()) for _ in range(4)]
    st_task = asyncio.ensure_future(socket_joiner())
    await asyncio.sleep(1)
    for k in range(30):
        tasks.append(asyncio.ensure_future(spectator(k)))
        await asyncio.sleep(0.3)
    await asyncio.gather(*jt)
    socket_opens = await st_task
    t1 = now()
    cpu = server.cpu_seconds() - cpu0
    # spectators: close them now, by the server's own doing only what happened before counts
    closed_early = list(spect_closed)
    for t in tasks:
        t.cancel()
    await asyncio.sleep(0.5)
    await c.close()
    errors = server.log_lines(r"ERROR") - errors0
    return {"attack": "4 loops POSTing /join to one finished game + 1 loop opening/closing its socket, 20 s, one address; 30 spectators opening sockets meanwhile",
            "join_requests": n, "join_per_second": round(n / (t1 - t0), 1), "join_statuses": statuses,
            "socket_opens_in_loop": socket_opens, "server_cpu_seconds": round(cpu, 1),
            "spectators_closed_by_server_during": closed_early, "error_lines_in_log": errors,
            "window": (t0, t1)}


# ---------------------------------------------------------------- finding 12

async def attack_12(ctx):
    server, seed = ctx["server"], ctx["seed"]
    host, port = server.base.rsplit(":", 1)
    port = int(port)
    out = {}
    enc = ctx["params"].get("encoding", "identity")
    out["accept_encoding"] = enc
    cpu0 = server.cpu_seconds()
    # (a) 32 exports at once from one address
    c = Client(server, ip(120), limit=100, timeout=120)
    await c.new_session()
    res = []

    async def export(cl):
        t = now()
        try:
            async with cl.http.get(f"http://{server.base}/api/players/heavy/games/export?format=ogn",
                                   headers=cl.headers({"accept-encoding": enc})) as r:
                n = 0
                async for chunk in r.content.iter_chunked(65536):
                    n += len(chunk)
                return (r.status, now() - t, n)
        except Exception as e:  # noqa: BLE001
            return (type(e).__name__, now() - t, 0)
    t0 = now()
    res = await asyncio.gather(*(export(c) for _ in range(32)))
    t1 = now()
    sts = [r[0] for r in res]
    out["a_32_from_one_address"] = {"statuses": {str(s): sts.count(s) for s in set(sts)},
                                   "export_200": [{"seconds": round(d, 1), "bytes": n} for s, d, n in res if s == 200],
                                   "seconds": round(t1 - t0, 1), "server_cpu_s": round(server.cpu_seconds() - cpu0, 1)}
    # (b) 20 addresses, one each, all reading
    clients = [Client(server, ip(121 + i), timeout=120) for i in range(20)]
    for cl in clients:
        await cl.new_session()
    cpu0 = server.cpu_seconds()
    t2 = now()
    res = await asyncio.gather(*(export(cl) for cl in clients))
    t3 = now()
    sts = [r[0] for r in res]
    out["b_20_addresses_reading"] = {"statuses": {str(s): sts.count(s) for s in set(sts)},
                                     "max_seconds_200": round(max([d for s, d, n in res if s == 200] or [0]), 1),
                                     "bytes": max([n for s, d, n in res] or [0]),
                                     "seconds": round(t3 - t2, 1), "server_cpu_s": round(server.cpu_seconds() - cpu0, 1)}
    # (c) 20 clients (20 addresses) that ask and never read
    async def never_read(k, token):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.bind((ip(150 + k), 0))
        s.setblocking(False)
        loop = asyncio.get_event_loop()
        await loop.sock_connect(s, (host, port))
        await loop.sock_sendall(s, (f"GET /api/players/heavy/games/export?format=ogn HTTP/1.1\r\nHost: {server.base}\r\n"
                                    f"Authorization: Bearer {token}\r\nAccept-Encoding: {enc}\r\n\r\n").encode())
        t = now()
        await asyncio.sleep(3)
        first = s.recv(300) if True else b""
        status = first[9:12].decode(errors="replace") if first else "?"
        # now never read again; see when the server closes: poll with MSG_PEEK via a tiny read at the end
        closed_at = None
        while now() - t < 45:
            await asyncio.sleep(1)
            try:
                info = s.getsockopt(socket.SOL_TCP, socket.TCP_INFO, 8)
                state = info[0]
                if state in (8, 7, 11):  # CLOSE_WAIT, CLOSE, ...
                    closed_at = now() - t
                    break
            except OSError:
                break
        s.close()
        return status, closed_at
    toks = []
    for k in range(20):
        cl = Client(server, ip(150 + k))
        await cl.new_session()
        toks.append(cl.token)
        await cl.close()
    t4 = now()
    peers = {ip(150 + k) for k in range(20)}
    timeline = []

    async def watch():
        # the server's side of those connections, as the kernel sees them
        while now() - t4 < 50:
            p = subprocess.run(["ss", "-tnH", "state", "all", f"( sport = :{port} )"],
                               capture_output=True, text=True)
            states = {}
            for line in p.stdout.splitlines():
                f = line.split()
                if len(f) >= 5 and f[4].rsplit(":", 1)[0] in peers:
                    states[f[0]] = states.get(f[0], 0) + 1
            timeline.append((round(now() - t4), states))
            await asyncio.sleep(5)
    wt = asyncio.ensure_future(watch())
    nr = await asyncio.gather(*(never_read(k, toks[k]) for k in range(20)))
    await wt
    t5 = now()
    out["c_server_side_states_by_second"] = timeline
    out["c_20_never_reading"] = {"first_status": [r[0] for r in nr],
                                 "closed_by_server_after_s": [None if r[1] is None else round(r[1], 1) for r in nr]}
    for cl in clients + [c]:
        await cl.close()
    out["window"] = (t0, t5)
    out["windows"] = {"a": (t0, t1), "b": (t2, t3), "c": (t4, t5)}
    out["attack"] = "exports of `heavy` (5,005 games): 32 at once from one address; 20 addresses one each; 20 addresses that never read"
    return out


# ---------------------------------------------------------------- finding 13

async def attack_13(ctx):
    server = ctx["server"]
    real = Client(server, ip(130))
    st, b, _, _ = await real.call("POST", "/api/account", {"username": "realuser", "password": PASSWORD})
    assert st == 201, (st, b)
    real_login = []
    statuses = {}
    lat = []

    async def flood(a):
        cl = Client(server, ip(131 + a), timeout=120)

        async def one(k):
            st, b, dt, _ = await cl.call("POST", "/api/login", {"username": f"nobody{a}x{k}", "password": "not the password 123"})
            statuses[str(st)] = statuses.get(str(st), 0) + 1
            lat.append(dt)
        await asyncio.gather(*(one(k) for k in range(20)))
        await cl.close()

    async def owner():
        await asyncio.sleep(0.5)
        for _ in range(8):
            t = now()
            # the real user's device (marked) logs in
            st, b, dt, _ = await real.call("POST", "/api/login", {"username": "realuser", "password": PASSWORD})
            real_login.append({"status": st, "ms": round(dt * 1000)})
            await asyncio.sleep(0.5)
    t0 = now()
    cpu0 = server.cpu_seconds()
    await asyncio.gather(*(flood(a) for a in range(40)), owner())
    t1 = now()
    await real.close()
    return {"attack": "40 addresses x 20 log-ins at once (unknown usernames, each address within its 20 a minute); the real user (its own address, a device it used before) logs in 8 times meanwhile, 0.5 s apart",
            "statuses": statuses, "flood_latency": summary(lat), "real_user_logins": real_login,
            "seconds": round(t1 - t0, 1), "server_cpu_s": round(server.cpu_seconds() - cpu0, 1), "window": (t0, t1)}


# ---------------------------------------------------------------- finding 14

async def attack_14(ctx):
    server, seed = ctx["server"], ctx["seed"]
    c = Client(server, ip(140))
    out = {}

    async def look(label):
        r = {}
        for q in ("ghost", "@ghost", "Ghost"):
            st, b, _, _ = await c.call("GET", f"/api/archive?player={q}")
            r[f"archive?player={q}"] = (st, len(b.get("games", [])) if isinstance(b, dict) else b)
        st, b, _, _ = await c.call("GET", "/api/archive?player=nosuchuser77")
        r["archive?player=nosuchuser77"] = (st, len(b.get("games", [])) if isinstance(b, dict) else b)
        st, b, _, _ = await c.call("GET", "/api/players/ghost")
        r["players/ghost"] = st
        gid = seed["ghost_games"][0]
        st, b, _, _ = await c.call("GET", f"/api/archive/{gid}")
        r["archive/<ghost game>"] = (st, (b or {}).get("south") if isinstance(b, dict) else b)
        await c.new_session()
        try:
            st, b, _, size = await c.call("GET", "/api/players/ghost/games/export?format=ndjson",
                                          headers={"accept-encoding": "identity"}, parse=False)
            r["players/ghost/games/export"] = (st, size)
        except Exception as e:  # noqa: BLE001
            r["players/ghost/games/export"] = repr(e)[:120]
        c.token = None
        out[label] = r
    await look("before_disable")
    p = subprocess.run([ctx["bin"], "admin", "--database-url", server.url, "disable", "ghost"],
                       capture_output=True, text=True, timeout=60)
    out["admin_disable"] = {"rc": p.returncode, "out": (p.stdout + p.stderr).strip()[:300]}
    await asyncio.sleep(1)
    await look("after_disable")
    await asyncio.sleep(61)
    await look("after_disable_61s")
    await c.close()
    out["attack"] = "archive, player page and export for `ghost` (3 finished games) before and after `omweso admin disable ghost` on the running server's database"
    return out


# ---------------------------------------------------------------- finding 15

async def attack_15(ctx):
    server = ctx["server"]
    out = {}

    def rand_code():
        return "".join(random.choice("0123456789ABCDEFGHJKMNPQRSTVWXYZ") for _ in range(8))
    # (a) co-director invitation: 6 addresses x 10 wrong codes at one tournament
    d = Client(server, ip(160))
    await d.new_session("Director")
    st, t, _, _ = await d.call("POST", "/api/tournaments", {"name": "Probe Cup", "ruleset": "oware"})
    assert st == 201, (st, t)
    tid = t["tournament_id"]
    st, inv, _, _ = await d.call("POST", f"/api/tournaments/{tid}/co-director-invites")
    assert st == 201, (st, inv)
    sts = []
    for a in range(6):
        cl = Client(server, ip(161 + a))
        await cl.new_session()
        for _ in range(10):
            st, b, _, _ = await cl.call("POST", f"/api/tournaments/{tid}/co-directors/accept", {"code": rand_code()})
            sts.append((a, st, (b or {}).get("error", {}).get("code") if isinstance(b, dict) else None))
        await cl.close()
    good = Client(server, ip(170))
    await good.new_session("Real co-director")
    st, b, _, _ = await good.call("POST", f"/api/tournaments/{tid}/co-directors/accept", {"code": inv["code"]})
    out["a_codirector_invite"] = {
        "wrong_codes": {f"{s}/{c}": sum(1 for x in sts if (x[1], x[2]) == (s, c)) for s, c in {(x[1], x[2]) for x in sts}},
        "first_refused_at_try": next((i + 1 for i, x in enumerate(sts) if x[1] == 429), None),
        "right_code_after": {"status": st, "body": b if st != 200 else "ok"}}
    st, inv2, _, _ = await d.call("POST", f"/api/tournaments/{tid}/co-director-invites")
    st2, b, _, _ = await good.call("POST", f"/api/tournaments/{tid}/co-directors/accept", {"code": inv2["code"]}) if st == 201 else (None, None, 0, 0)
    out["a_codirector_invite"]["new_invite_then_right_code"] = {"invite_status": st, "accept_status": st2}
    # (b) link codes at /link: 6 addresses x 10, then up to 61 addresses x 10 (the server's 600 an hour)
    sts = []
    for a in range(61):
        cl = Client(server, ip(171 + a))
        await cl.new_session()
        rs = await asyncio.gather(*(cl.call("POST", "/api/link", {"code": rand_code()}) for _ in range(10)))
        for st, b, _, _ in rs:
            sts.append((a, st))
        await cl.close()
    first6 = [s for a, s in sts if a < 6]
    out["b_link_codes"] = {"6x10_statuses": {str(s): first6.count(s) for s in set(first6)},
                           "61x10_statuses": {str(s): [x[1] for x in sts].count(s) for s in {x[1] for x in sts}},
                           "first_429_at_try": next((i + 1 for i, x in enumerate(sts) if x[1] == 429), None)}
    # a real link code, used right after
    owner = Client(server, ip(240))
    await owner.new_session("Owner")
    st, code, _, _ = await owner.call("POST", "/api/link-codes")
    dev = Client(server, ip(241))
    st2, b, _, _ = await dev.call("POST", "/api/link", {"code": code["code"]}) if st == 201 else (None, None, 0, 0)
    out["b_link_codes"]["real_code_right_after"] = {"make": st, "use": st2, "body": b if st2 != 200 else "ok"}
    for cl in (d, good, owner, dev):
        await cl.close()
    out["attack"] = "wrong co-director codes at one tournament from 6 addresses x 10; wrong link codes from 6 then 61 addresses x 10"
    return out


# ---------------------------------------------------------------- findings 3 and 4

async def attack_3(ctx):
    server = ctx["server"]
    d = Client(server, ip(200))
    await d.new_session("Director")
    st, t, _, _ = await d.call("POST", "/api/tournaments", {"name": "Link Cup", "ruleset": "oware"})
    tid = t["tournament_id"]
    g = Client(server, ip(201))
    await g.new_session("Guest player")
    st_j, b, _, _ = await g.call("POST", f"/api/tournaments/{tid}/join", {})
    # the guest also directs its own tournament
    st, t2, _, _ = await g.call("POST", "/api/tournaments", {"name": "Guest Cup", "ruleset": "oware"})
    tid2 = t2["tournament_id"]
    st_c, code, _, _ = await d.call("POST", f"/api/tournaments/{tid}/players/{g.player_id}/link-code")
    out = {"join": st_j, "director_code": st_c}
    if st_c in (200, 201):
        dev = Client(server, ip(202))
        st, linked, _, _ = await dev.call("POST", "/api/link", {"code": code["code"]})
        out["link"] = st
        if st == 200:
            dev.token = linked["token"]
            for label, m, p, body in [
                ("GET /api/me", "GET", "/api/me", None),
                ("GET /api/devices", "GET", "/api/devices", None),
                ("POST guest's own tournament rounds", "POST", f"/api/tournaments/{tid2}/rounds", {}),
                ("GET guest's own tournament", "GET", f"/api/tournaments/{tid2}", None),
                ("POST /api/link-codes", "POST", "/api/link-codes", None),
                ("PATCH /api/me", "PATCH", "/api/me", {"name": "Taken"}),
                ("GET the tournament it was linked for", "GET", f"/api/tournaments/{tid}", None),
            ]:
                st, b, _, _ = await dev.call(m, p, body)
                out[label] = (st, (b or {}).get("error", {}).get("code") if isinstance(b, dict) and "error" in b else
                              ({"only_tournament": b.get("only_tournament")} if isinstance(b, dict) and "only_tournament" in b else None))
        await dev.close()
    for c in (d, g):
        await c.close()
    out["attack"] = "director's new-device code for a guest of their tournament, used; then the device asks for the guest's other things"
    return out


async def play_until(client_by_seat, gid, plies):
    """Plays `plies` moves (first legal move) then returns the sockets."""
    socks = {s: await c.ws(f"/ws/games/{gid}") for s, c in client_by_seat.items()}
    legal = {}
    m = json.loads(await socks["s"].recv())
    legal = m["d"].get("legal", {})
    await socks["n"].recv()
    for i in range(plies):
        side = next(s for s in ("s", "n") if legal.get(s, {}).get("moves"))
        await socks[side].send(json.dumps({"t": "move", "d": {"move": legal[side]["moves"][0]}, "id": i}))
        while True:
            m = json.loads(await asyncio.wait_for(socks["s"].recv(), 10))
            if m["t"] == "played":
                legal = m["d"].get("legal", {})
                break
    return socks


async def attack_4(ctx):
    server = ctx["server"]
    farmer = Client(server, ip(210))
    st, b, _, _ = await farmer.call("POST", "/api/account", {"username": "farmer", "password": PASSWORD})
    farmer.token = b["token"]
    puppets = []
    for k in range(2):
        p = Client(server, ip(211 + k))
        st, b, _, _ = await p.call("POST", "/api/account", {"username": f"puppet{k}", "password": PASSWORD})
        p.token = b["token"]
        puppets.append(p)
    out = {}

    async def rating():
        st, b, _, _ = await farmer.call("GET", "/api/players/farmer/rating-history")
        if isinstance(b, dict):
            b = [{"ruleset": r.get("ruleset"), "points": len(r.get("points", r.get("history", []))),
                  "last": (r.get("points") or r.get("history") or [None])[-1]} for r in b.get("rulesets", [])]
        st2, page, _, _ = await farmer.call("GET", "/api/players/farmer")
        return {"history_status": st, "history": json.dumps(b)[:300],
                "page_ratings": page.get("ratings") if isinstance(page, dict) else page}
    out["before"] = await rating()
    rated = []
    for k in range(14):
        p = puppets[k % 2]
        # the creator alternates (10 games a session a minute); the creator sits South
        creator, joiner = (farmer, p) if k % 2 == 0 else (p, farmer)
        st, g, _, _ = await creator.call("POST", "/api/games", {"ruleset": "oware"})
        if st != 201:
            out.setdefault("create_refused", []).append((st, g))
            continue
        gid = g["game_id"]
        await joiner.call("POST", f"/api/games/{gid}/join", {})
        seats = {"s": creator, "n": joiner}
        socks = await play_until(seats, gid, int(ctx["params"].get("plies", 2)))
        puppet_seat = "n" if creator is farmer else "s"
        await socks[puppet_seat].send(json.dumps({"t": "resign", "d": {}, "id": "r"}))
        while True:
            m = json.loads(await asyncio.wait_for(socks["s"].recv(), 10))
            if m["t"] == "end":
                break
        for s in socks.values():
            await s.close()
        st, snap, _, _ = await farmer.call("GET", f"/api/games/{gid}")
        rated.append(snap.get("rated"))
    out["games"] = 14
    out["plies_before_resigning"] = int(ctx["params"].get("plies", 2))
    out["snapshots_rated"] = rated
    await asyncio.sleep(1)
    out["after"] = await rating()
    for c in [farmer] + puppets:
        await c.close()
    out["attack"] = "14 rated Oware games of `farmer` against two puppet accounts, each resigned by the puppet after one move each"
    return out


class ProbeHandle:
    """The probe process seen from the harness: its figures read from its file."""

    def __init__(self, server, seed_path):
        self.out = os.path.join(WORK, f"probe-{server.name}.json")
        if os.path.exists(self.out):
            os.remove(self.out)
        self.proc = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "probe_proc.py"),
                                      server.base, self.out, seed_path])

    async def ready(self):
        for _ in range(300):
            if os.path.exists(self.out) and self.data()["rtts"]:
                return
            await asyncio.sleep(0.1)
        raise RuntimeError("the probe process made no move")

    def data(self):
        with open(self.out) as f:
            return json.load(f)

    @property
    def games(self):
        return self.data()["games"]

    @property
    def finished_games(self):
        return self.data()["finished_games"]

    def window(self, t0, t1):
        d = self.data()
        acks = [r[1] for r in d["rtts"] if t0 <= r[0] < t1]
        evs = [r[2] for r in d["rtts"] if t0 <= r[0] < t1]
        return {"ack": summary(acks), "event": summary(evs)}

    def visitor_window(self, t0, t1):
        d = self.data()
        a = [x[1] for x in d.get("analysis", []) if t0 <= x[0] < t1]
        bad = [x[2] for x in d.get("analysis", []) if t0 <= x[0] < t1 and x[2] != 200]
        s = [x[1] for x in d.get("sockets", []) if t0 <= x[0] < t1 and x[1] is not None]
        fail = sum(1 for x in d.get("sockets", []) if t0 <= x[0] < t1 and x[1] is None)
        return {"analysis_legal": summary(a), "analysis_not_200": bad[:10],
                "finished_game_socket": summary(s), "socket_failures": fail}

    async def stop(self):
        self.proc.send_signal(15)
        for _ in range(450):
            if self.proc.poll() is not None:
                break
            await asyncio.sleep(0.1)
        else:
            self.proc.kill()


async def attack_0(ctx):
    """No attack: the probe's second window of rest, to see the machine's own noise."""
    await asyncio.sleep(float(ctx["params"].get("seconds", 20)))
    return {"attack": "none (control): a second window of rest"}


ATTACKS = {"0": attack_0, "9b": attack_9b, "1": attack_1, "2": attack_2, "3": attack_3, "4": attack_4, "6": attack_6, "9": attack_9,
           "10": attack_10, "11": attack_11, "12": attack_12, "13": attack_13, "14": attack_14,
           "15": attack_15}


async def run(name, args, seed):
    db = os.path.join(WORK, f"f{name}.sqlite")
    copy_db(SEED, db)
    server = Server(args.bin, db, f"f{name}", env={"OMWESO_LOG": "info"}).start()
    probe = ProbeHandle(server, os.path.join(WORK, "seed.json"))
    result = {"finding": name, "started": time.strftime("%H:%M:%S"), "params": args.param,
              "command": " ".join(sys.argv)}
    try:
        await probe.ready()
        await asyncio.sleep(3)
        result["loadavg_start"] = open("/proc/loadavg").read().split()[:3]
        tr = now()
        await asyncio.sleep(args.rest)
        rest = probe.window(tr, now())
        visitor_rest = probe.visitor_window(tr, now())
        result["rss_at_rest_mb"] = round(server.rss_mb(), 1)
        ctx = {"server": server, "probe": probe, "seed": seed, "rest": args.rest, "bin": args.bin,
               "params": dict(kv.split("=", 1) for kv in args.param)}
        t0 = now()
        res = await ATTACKS[name](ctx)
        t1 = now()
        w = res.pop("window", (t0, t1))
        windows = res.pop("windows", None)
        result.update(res)
        await asyncio.sleep(1.5)
        result["probe_rest"] = rest
        result["probe_attack"] = probe.window(*w)
        result["visitor_rest"] = visitor_rest
        result["visitor_attack"] = probe.visitor_window(*w)
        if windows:
            result["probe_windows"] = {k: probe.window(*v) for k, v in windows.items()}
        await asyncio.sleep(args.after)
        result["probe_after"] = probe.window(t1, now())
        result["loadavg_end"] = open("/proc/loadavg").read().split()[:3]
        d = probe.data()
        result["probe_errors"] = d["errors"][:10]
        result["probe_timeouts"] = d["timeouts"]
        result["rss_end_mb"] = round(server.rss_mb() or 0, 1)
    finally:
        try:
            await probe.stop()
        finally:
            server.stop()
    result["server_log_error_lines"] = server.log_lines(r"\bERROR\b")
    os.makedirs(os.path.join(WORK, "results"), exist_ok=True)
    path = os.path.join(WORK, "results", f"{name}-{time.strftime('%H%M%S')}.json")
    with open(path, "w") as f:
        json.dump(result, f, indent=1, default=str)
    print(json.dumps(result, indent=1, default=str), flush=True)
    print("saved", path, flush=True)
    return result


async def main(args):
    with open(os.path.join(WORK, "seed.json")) as f:
        seed = json.load(f)
    for name in args.findings:
        await run(name, args, seed)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--bin", default="../../target/release/omweso")
    p.add_argument("--rest", type=float, default=10)
    p.add_argument("--after", type=float, default=10, help="seconds of probe after the attack")
    p.add_argument("--param", action="append", default=[], help="key=value given to the attacks")
    p.add_argument("findings", nargs="+", choices=sorted(ATTACKS))
    asyncio.run(main(p.parse_args()))
