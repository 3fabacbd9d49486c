"""The probe game (and another visitor) in a process of its own, so that the attackers'
work in the harness's process never delays its measurements.

usage: probe_proc.py HOST:PORT OUT.json [SEED.json]
Writes OUT.json every second: the probe's moves (t sent, ack and event round trips, on
CLOCK_MONOTONIC, which every process of the machine shares), its games, and the
visitor's analysis calls and finished-game socket openings. Stops on SIGTERM.
"""

import asyncio
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(__file__))
from lib import Probe  # noqa: E402
from attacks import Visitor  # noqa: E402


class Stub:
    def __init__(self, base):
        self.base = base


async def main(base, out, seed_path):
    server = Stub(base)
    probe = Probe(server)
    await probe.setup()
    probe.start()
    visitor = None
    if seed_path:
        with open(seed_path) as f:
            seed = json.load(f)
        visitor = Visitor(server, seed["heavy_ids"][:400])
        await visitor.setup()
        visitor.start()
    stop = asyncio.Event()
    asyncio.get_event_loop().add_signal_handler(signal.SIGTERM, stop.set)

    def dump():
        data = {"rtts": probe.rtts, "errors": [str(e)[:200] for e in probe.errors[:20]],
                "timeouts": probe.timeouts, "games": probe.games, "finished_games": probe.finished_games}
        if visitor:
            data["analysis"] = visitor.analysis
            data["sockets"] = visitor.sockets
        tmp = out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(data, f, default=str)
        os.replace(tmp, out)
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), 1)
        except asyncio.TimeoutError:
            pass
        dump()
    if visitor:
        await visitor.stop()
    await probe.stop()
    dump()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None))
