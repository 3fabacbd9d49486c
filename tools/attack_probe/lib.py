"""Shared pieces of the attack probe (issue 41): a server under test, HTTP and socket
clients bound to a chosen 127.0.0.x source address, and the probe game.

Everything here talks to a real `omweso serve` started by `Server`; nothing imports the
server's code.
"""

import asyncio
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import time

import aiohttp
import websockets

WORK = os.environ.get("ATTACK_PROBE_DIR", "/tmp/attack_probe")


def now():
    return time.monotonic()


def pct(values, p):
    """The p-th percentile (nearest rank) of values, or None."""
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(p / 100.0 * len(s) + 0.5)) - 1))
    return s[k]


def summary(values):
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "p50_ms": round(pct(values, 50) * 1000, 1),
        "p99_ms": round(pct(values, 99) * 1000, 1),
        "max_ms": round(max(values) * 1000, 1),
        "mean_ms": round(statistics.mean(values) * 1000, 1),
    }


class Server:
    """One `omweso serve` on a SQLite file, port 0, its log in WORK/<name>.log."""

    def __init__(self, binary, db_path, name, extra_args=(), env=None):
        self.binary = binary
        self.db_path = db_path
        self.name = name
        self.extra_args = list(extra_args)
        self.env = dict(os.environ)
        self.env.update(env or {})
        self.env.setdefault("OMWESO_LOG", "info")
        self.proc = None
        self.base = None
        self.log_path = os.path.join(WORK, f"{name}.log")

    @property
    def url(self):
        return f"sqlite://{self.db_path}?mode=rwc"

    def start(self):
        os.makedirs(WORK, exist_ok=True)
        self.log = open(self.log_path, "w")
        args = [self.binary, "serve", "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0",
                "--database-url", self.url] + self.extra_args
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, env=self.env,
                                     text=True, start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"server exited: see {self.log_path}")
            self.log.write("[stdout] " + line)
            self.log.flush()
            m = re.search(r"listening on http://(\S+)", line)
            if m:
                self.base = m.group(1)
                break
        if not self.base:
            raise RuntimeError("server did not say where it listens")
        # keep draining stdout into the log
        import threading

        def drain():
            for line in self.proc.stdout:
                self.log.write("[stdout] " + line)
                self.log.flush()
        threading.Thread(target=drain, daemon=True).start()
        return self

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if getattr(self, "log", None):
            self.log.close()

    def rss_mb(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024.0
        except FileNotFoundError:
            return None
        return None

    def cpu_seconds(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def log_lines(self, pattern):
        with open(self.log_path, errors="replace") as f:
            return sum(1 for line in f if re.search(pattern, line))


class RssSampler:
    """Samples a server's RSS every `every` seconds while running."""

    def __init__(self, server, every=0.2):
        self.server, self.every = server, every
        self.samples = []
        self.task = None

    async def _run(self):
        while True:
            r = self.server.rss_mb()
            if r is not None:
                self.samples.append(r)
            await asyncio.sleep(self.every)

    def start(self):
        self.task = asyncio.ensure_future(self._run())
        return self

    async def stop(self):
        self.task.cancel()
        try:
            await self.task
        except asyncio.CancelledError:
            pass
        return {"rss_start_mb": round(self.samples[0], 1) if self.samples else None,
                "rss_peak_mb": round(max(self.samples), 1) if self.samples else None,
                "rss_end_mb": round(self.samples[-1], 1) if self.samples else None}


class Client:
    """An HTTP client from one source address (127.0.0.x), with an optional session."""

    def __init__(self, server, ip="127.0.0.1", limit=100, timeout=60):
        self.server = server
        self.ip = ip
        self.token = None
        self.player_id = None
        conn = aiohttp.TCPConnector(local_addr=(ip, 0), limit=limit, force_close=False)
        self.http = aiohttp.ClientSession(
            connector=conn, timeout=aiohttp.ClientTimeout(total=timeout),
            cookie_jar=aiohttp.CookieJar(unsafe=True))

    async def close(self):
        await self.http.close()

    def headers(self, extra=None):
        h = {"content-type": "application/json"}
        if self.token:
            h["authorization"] = f"Bearer {self.token}"
        if extra:
            h.update(extra)
        return h

    async def call(self, method, path, body=None, raw=None, headers=None, read=True, parse=True):
        """Returns (status, parsed json or text or None, seconds, size)."""
        t0 = now()
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        async with self.http.request(method, f"http://{self.server.base}{path}", data=data,
                                     headers=self.headers(headers)) as r:
            payload = await r.read() if read else b""
            dt = now() - t0
            try:
                parsed = json.loads(payload) if payload and parse else None
            except ValueError:
                parsed = payload[:200].decode(errors="replace")
            return r.status, parsed, dt, len(payload)

    async def new_session(self, name=None):
        # a fresh cookie jar so that the request does not replace another session
        self.http.cookie_jar.clear()
        self.token = None
        st, body, _, _ = await self.call("POST", "/api/session", {"name": name} if name else {})
        if st != 200 and st != 201:
            raise RuntimeError(f"session from {self.ip}: {st} {body}")
        self.token = body["token"]
        self.player_id = body["player_id"]
        return body

    def ws_url(self, path):
        sep = "&" if "?" in path else "?"
        return f"ws://{self.server.base}{path}{sep}token={self.token}"

    async def ws(self, path, **kw):
        host, port = self.server.base.rsplit(":", 1)
        sock_kw = {}
        if self.ip != "127.0.0.1":
            import socket
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((self.ip, 0))
            s.setblocking(False)
            await asyncio.get_event_loop().sock_connect(s, (host, int(port)))
            sock_kw["sock"] = s
        return await websockets.connect(self.ws_url(path), max_size=None, open_timeout=60,
                                        ping_interval=None, **sock_kw, **kw)


class Probe:
    """Two guest players on one Oware game, a move every `interval` seconds, each move's
    round trip (send to ack) recorded with the time it was sent. A new game is started
    when one ends."""

    def __init__(self, server, ip="127.0.0.1", interval=0.1, ruleset="oware"):
        self.server, self.ip, self.interval, self.ruleset = server, ip, interval, ruleset
        self.rtts = []          # (t_sent, rtt_ack, rtt_event)
        self.errors = []
        self.timeouts = 0
        self.games = []
        self.finished_games = []
        self._stop = asyncio.Event()
        self.task = None

    async def setup(self):
        self.a = Client(self.server, self.ip)
        self.b = Client(self.server, self.ip)
        await self.a.new_session("Probe South")
        await self.b.new_session("Probe North")

    async def _new_game(self, creator, joiner):
        st, body, _, _ = await creator.call("POST", "/api/games", {"ruleset": self.ruleset})
        if st != 201:
            raise RuntimeError(f"probe create: {st} {body}")
        gid = body["game_id"]
        st, body, _, _ = await joiner.call("POST", f"/api/games/{gid}/join", {})
        if st != 200:
            raise RuntimeError(f"probe join: {st} {body}")
        self.games.append(gid)
        return gid

    async def _play_game(self, gid, first, second):
        socks = {}
        queues = {}
        readers = []
        state = {"legal": {}, "version": 0, "ended": False}
        pending = {}  # id -> (t_sent, future)

        async def reader(seat_client, ws, key):
            try:
                async for raw in ws:
                    m = json.loads(raw)
                    t = m.get("t")
                    if t == "state":
                        d = m["d"]
                        if key == "first":
                            state["legal"] = d.get("legal") or {}
                            state["you_first"] = d.get("you")
                            if d.get("status") in ("finished", "annulled"):
                                state["ended"] = True
                        else:
                            state["you_second"] = d.get("you")
                    elif t == "ack":
                        i = (m.get("d") or {}).get("id")
                        if i in pending:
                            pending[i]["ack"] = now()
                            pending[i]["ackev"].set()
                    elif t == "error":
                        i = (m.get("d") or {}).get("id")
                        if i in pending:
                            pending[i]["error"] = m["d"]
                            pending[i]["ackev"].set()
                            pending[i]["ev"].set()
                    elif t in ("played", "started", "steal") and key == "first":
                        d = m["d"]
                        state["legal"] = d.get("legal") or {}
                        for i, p in pending.items():
                            if "event" not in p:
                                p["event"] = now()
                                p["ev"].set()
                    elif t == "end" and key == "first":
                        state["ended"] = True
                        state["legal"] = {}
                        for i, p in pending.items():
                            if "event" not in p:
                                p["event"] = now()
                                p["ev"].set()
            except websockets.ConnectionClosed as e:
                state.setdefault("closed", []).append((key, e.code if hasattr(e, "code") else None))

        socks["first"] = await first.ws(f"/ws/games/{gid}")
        socks["second"] = await second.ws(f"/ws/games/{gid}")
        for key in ("first", "second"):
            readers.append(asyncio.ensure_future(reader(None, socks[key], key)))
        # wait for both states
        t_wait = now()
        while ("you_first" not in state or "you_second" not in state) and now() - t_wait < 30:
            await asyncio.sleep(0.01)
        seat_of = {state.get("you_first"): socks["first"], state.get("you_second"): socks["second"]}
        n = 0
        next_tick = now()
        try:
            while not self._stop.is_set() and not state["ended"]:
                legal = state["legal"]
                sides = [s for s in ("s", "n") if s in legal and legal[s].get("moves")]
                if not sides:
                    await asyncio.sleep(0.01)
                    if now() - next_tick > 30:
                        self.errors.append("no legal moves for 30 s")
                        break
                    continue
                side = sides[0]
                move = legal[side]["moves"][(n * 7) % len(legal[side]["moves"])]
                n += 1
                mid = f"p{n}"
                p = {"sent": now(), "ackev": asyncio.Event(), "ev": asyncio.Event()}
                pending[mid] = p
                state["legal"] = {}
                await seat_of[side].send(json.dumps({"t": "move", "d": {"move": move}, "id": mid}))
                try:
                    await asyncio.wait_for(p["ackev"].wait(), 30)
                    await asyncio.wait_for(p["ev"].wait(), 30)
                except asyncio.TimeoutError:
                    self.timeouts += 1
                    break
                if "error" in p:
                    self.errors.append(p["error"])
                    if len(self.errors) > 50:
                        break
                    await asyncio.sleep(0.05)
                    continue
                self.rtts.append((p["sent"], p["ack"] - p["sent"], p["event"] - p["sent"]))
                del pending[mid]
                next_tick += self.interval
                delay = next_tick - now()
                if delay > 0:
                    await asyncio.sleep(delay)
                else:
                    next_tick = now()
        finally:
            for ws in socks.values():
                await ws.close()
            for r in readers:
                r.cancel()
        if state["ended"]:
            self.finished_games.append(gid)

    async def _run(self):
        k = 0
        while not self._stop.is_set():
            creator, joiner = (self.a, self.b) if k % 2 == 0 else (self.b, self.a)
            k += 1
            try:
                gid = await self._new_game(creator, joiner)
                await self._play_game(gid, creator, joiner)
            except Exception as e:  # noqa: BLE001
                self.errors.append(repr(e))
                await asyncio.sleep(1)

    def start(self):
        self.task = asyncio.ensure_future(self._run())
        return self

    async def stop(self):
        self._stop.set()
        try:
            await asyncio.wait_for(self.task, 40)
        except asyncio.TimeoutError:
            self.task.cancel()
        await self.a.close()
        await self.b.close()

    def window(self, t0, t1):
        """ack and event round trips of moves sent in [t0, t1)."""
        acks = [r[1] for r in self.rtts if t0 <= r[0] < t1]
        evs = [r[2] for r in self.rtts if t0 <= r[0] < t1]
        return {"ack": summary(acks), "event": summary(evs)}


async def rest_window(probe, seconds=10):
    t0 = now()
    await asyncio.sleep(seconds)
    return probe.window(t0, now())


def copy_db(src, dst):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(src + suffix):
            shutil.copy(src + suffix, dst + suffix)
        elif os.path.exists(dst + suffix):
            os.remove(dst + suffix)
