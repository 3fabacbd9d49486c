"""Builds the database the attacks start from (a copy for each attack):

- `heavy`: an account with N finished Oware games (resigned at once, half won, half lost)
  against one guest, for the player page (finding 6) and exports (finding 12);
- `ghost`: an account with 3 finished games, disabled later by `omweso admin` (finding 14);
- a few finished games whose ids are saved, for finding 11.

The server is started with the creation limits raised for this phase only (the attacks
run under the defaults). Writes WORK/seed.sqlite and WORK/seed.json.
"""

import argparse
import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from lib import WORK, Client, Server, copy_db, now  # noqa: E402

PASSWORD = "violet mangoes under a quiet bridge 41"

RAISED = {
    "OMWESO_GAMES_PER_SESSION_PER_MINUTE": "1000000",
    "OMWESO_GAMES_PER_IP_PER_MINUTE": "1000000",
    "OMWESO_OPEN_GAMES_PER_SESSION": "1000",
    "OMWESO_SESSIONS_PER_IP_PER_MINUTE": "100000",
    "OMWESO_SOCKETS_PER_SESSION": "1000",
    "OMWESO_LOG": "warn",
}


async def account(server, ip, username):
    c = Client(server, ip)
    st, body, _, _ = await c.call("POST", "/api/account", {"username": username, "password": PASSWORD})
    if st != 201:
        raise RuntimeError(f"account {username}: {st} {body}")
    c.token = body["token"]
    c.player_id = body["player_id"]
    return c, body


async def finished_game(owner, foe, owner_wins):
    st, body, _, _ = await owner.call("POST", "/api/games", {"ruleset": "oware", "rated": False})
    if st != 201:
        raise RuntimeError(f"create: {st} {body}")
    gid = body["game_id"]
    st, body, _, _ = await foe.call("POST", f"/api/games/{gid}/join", {})
    if st != 200:
        raise RuntimeError(f"join: {st} {body}")
    loser = foe if owner_wins else owner
    ws = await loser.ws(f"/ws/games/{gid}")
    try:
        await ws.send(json.dumps({"t": "resign", "d": {}, "id": "r"}))
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if m["t"] == "end":
                break
            if m["t"] == "error":
                raise RuntimeError(f"resign: {m}")
    finally:
        await ws.close()
    return gid


async def many(owner, foe, n, concurrency):
    done = []
    sem = asyncio.Semaphore(concurrency)
    counter = {"i": 0}

    async def one(i):
        async with sem:
            done.append(await finished_game(owner, foe, i % 2 == 0))
            counter["i"] += 1
            if counter["i"] % 500 == 0:
                print(f"  {counter['i']} games", flush=True)

    await asyncio.gather(*(one(i) for i in range(n)))
    return done


async def main(args):
    os.makedirs(WORK, exist_ok=True)
    db = os.path.join(WORK, "seed.sqlite")
    for s in ("", "-wal", "-shm"):
        if os.path.exists(db + s):
            os.remove(db + s)
    server = Server(args.bin, db, "seed", env=RAISED).start()
    try:
        t0 = now()
        heavy, _ = await account(server, "127.0.0.1", "heavy")
        foe = Client(server, "127.0.0.1")
        await foe.new_session("Foe")
        games = await many(heavy, foe, args.games, args.concurrency)
        print(f"heavy: {len(games)} games in {now() - t0:.1f} s", flush=True)
        ghost, _ = await account(server, "127.0.0.2", "ghost")
        ghost_games = await many(ghost, foe, 3, 3)
        extra = await many(foe, heavy, 5, 5)
        for c in (heavy, foe, ghost):
            await c.close()
    finally:
        server.stop()
    with open(os.path.join(WORK, "seed.json"), "w") as f:
        json.dump({"heavy_games": len(games), "heavy_ids": games, "heavy_won": (args.games + 1) // 2 + 2,
                   "heavy_lost": args.games // 2 + 3,
                   "ghost_games": ghost_games, "finished": extra, "password": PASSWORD}, f)
    print("seeded", db)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--bin", default="../../target/release/omweso")
    p.add_argument("--games", type=int, default=5000)
    p.add_argument("--concurrency", type=int, default=12)
    asyncio.run(main(p.parse_args()))
