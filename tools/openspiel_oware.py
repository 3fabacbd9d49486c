#!/usr/bin/env python3
"""Oware: the omweso engine (`bestmove` of `omweso engine`) against OpenSpiel's MCTS bot.

An outside yardstick for the computer player (issue 14, docs/bots.md). OpenSpiel's `oware`
plays the Abapa rules of RULES.md 3 (grand slam captures nothing, must feed, the game ends
at 25). Each game is played on both sides at once: every move is applied to OpenSpiel's
state and to ours (through the engine's `play`), and the two boards are compared after
every move, so a disagreement on the rules stops the match instead of skewing it.

    pip install open_spiel
    cargo build --release -p omweso
    python3 tools/openspiel_oware.py --engine target/release/omweso --level 8 \
        --simulations 1000 --games 20 --jobs 2

omweso plays South (OpenSpiel's player 0, who moves first) in even games and North in
odd ones. Prints wins/draws/losses for omweso, its score and the Elo difference with a 95%
interval (the same formula as `omweso arena`).
"""
import argparse
import json
import math
import subprocess
import sys
import time
from multiprocessing import Pool

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

COLUMNS = "ABCDEF"


def action_to_move(player, action):
    """OpenSpiel's house `action` (0..5, in the player's sowing order) as our notation."""
    if player == 0:
        return f"{COLUMNS[action]}1"  # South: A1..F1 left to right
    return f"{COLUMNS[5 - action]}2"  # North sows F2..A2: its house 0 ('a') is F2


def move_to_action(move):
    column, row = COLUMNS.index(move[0]), move[1]
    return column if row == "1" else 5 - column


def position_of(state):
    """The OpenSpiel state as our position string: `north/south side capS capN`."""
    lines = str(state).splitlines()
    north_score = int(lines[0].split("=")[1].split()[0])
    north = lines[2].split()  # shown f..a, i.e. columns A..F as seen from South
    south = lines[3].split()
    south_score = int(lines[5].split("=")[1].split()[0])
    side = "s" if state.current_player() == 0 else "n"
    return f"{','.join(north)}/{','.join(south)} {side} {south_score} {north_score}"


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if "error" in answer:
            raise RuntimeError(f"engine refused {request}: {answer['error']}")
        return answer

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def play_game(args):
    index, opts = args
    game = pyspiel.load_game("oware")
    rng = np.random.RandomState(opts["seed"] + index)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=opts["simulations"],
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                       random_state=rng, solve=True)
    engine = Engine(opts["engine"])
    ours = 0 if index % 2 == 0 else 1  # OpenSpiel's player 0 is South and moves first
    state = game.new_initial_state()
    position = "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0"
    plies, think = 0, 0.0
    try:
        while not state.is_terminal():
            player = state.current_player()
            if player == ours:
                started = time.monotonic()
                limit = {"level": opts["level"]} if opts["millis"] is None else {"millis": opts["millis"]}
                found = engine.ask({"op": "bestmove", "ruleset": "oware", "position": position,
                                    "seed": opts["seed"] * 100003 + index * 1009 + plies, **limit})
                think += time.monotonic() - started
                move = found["move"]
                action = move_to_action(move)
                if action not in state.legal_actions():
                    raise RuntimeError(f"omweso's {move} is not legal for OpenSpiel in {position}")
            else:
                action = bot.step(state)
                move = action_to_move(player, action)
            played = engine.ask({"op": "play", "ruleset": "oware", "position": position, "move": move})
            state.apply_action(action)
            plies += 1
            position = played["position"]
            if not state.is_terminal() and position_of(state) != position:
                raise RuntimeError(f"boards differ after {move}: OpenSpiel {position_of(state)}, omweso {position}")
            if played["outcome"] is not None and not state.is_terminal():
                raise RuntimeError(f"omweso ended the game after {move} ({played['outcome']}); OpenSpiel did not")
        returns = state.returns()
        result = 1.0 if returns[ours] > 0 else 0.0 if returns[ours] < 0 else 0.5
        return {"game": index, "ours": "s" if ours == 0 else "n", "result": result, "plies": plies,
                "think": think, "final": position}
    finally:
        engine.close()



def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/omweso")
    parser.add_argument("--level", type=int, default=8)
    parser.add_argument("--millis", type=int, default=None, help="a time budget instead of a level")
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    opts = vars(parser.parse_args())
    started = time.monotonic()
    with Pool(opts["jobs"]) as pool:
        results = []
        for r in pool.imap_unordered(play_game, [(i, opts) for i in range(opts["games"])]):
            results.append(r)
            print(f"game {r['game']}: omweso as {r['ours']} scores {r['result']} in {r['plies']} plies "
                  f"({r['think']:.1f} s thinking) final {r['final']}", file=sys.stderr, flush=True)
    n = len(results)
    wins = sum(r["result"] == 1.0 for r in results)
    draws = sum(r["result"] == 0.5 for r in results)
    losses = n - wins - draws
    score = (wins + 0.5 * draws) / n
    # Standard error of the per-game score, then the Elo of the interval's ends.
    mean_sq = (wins + 0.25 * draws) / n
    se = math.sqrt(max(mean_sq - score * score, 0.0) / n)
    lo, hi = max(score - 1.96 * se, 0.0), min(score + 1.96 * se, 1.0)
    # As `omweso arena`: a score of 0 or 1 is taken as half a game off it, so that a
    # clean sweep reads as a finite bound.
    edge = 0.5 / n
    to_elo = lambda p: -400 * math.log10(1 / min(max(p, edge), 1 - edge) - 1)
    limit = f"level {opts['level']}" if opts["millis"] is None else f"{opts['millis']} ms"
    print(f"omweso {limit} vs OpenSpiel MCTS ({opts['simulations']} simulations, random rollouts): "
          f"{n} games, +{wins} ={draws} -{losses}, score {score:.3f} "
          f"[{lo:.3f}, {hi:.3f}], Elo {to_elo(score):+.0f} [{to_elo(lo):+.0f}, {to_elo(hi):+.0f}], "
          f"{time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
