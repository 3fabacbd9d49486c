"""Sorts `perf script` samples of the server into the parts of the server they ran in.

Each sample goes to the first part (in the order below) that any frame of its stack names,
so that, say, SQLite's own calls under the writer count as the store's. Prints each part's
share of all samples and how much of that share was spent in the kernel.
"""
import collections
import re
import sys

PARTS = [
    ("store writer (SQLite, fsync)", r"omweso::store::writer|walFrames|sqlite3|rusqlite"),
    ("store checkpointer", r"checkpointer"),
    ("legal-move listing", r"engine_pool|legal::list|omweso_rules"),
    ("game actor (rules, events, JSON)", r"omweso::game::actor::Actor::run"),
    ("socket writers", r"omweso::ws::write"),
    ("socket readers", r"omweso::ws::read|on_upgrade"),
    ("HTTP (game set-up)", r"hyper::|axum::|omweso::accept"),
    ("lobby", r"lobby"),
    ("idle workers parking and waking", r"park|Condvar|futex"),
]


def main():
    parts = collections.Counter()
    kernel = collections.Counter()
    total = 0
    for sample in sys.stdin.read().split("\n\n"):
        lines = [l.strip() for l in sample.strip().split("\n") if l.strip()]
        if len(lines) < 2:
            continue
        frames = [l.split(None, 1)[1] if len(l.split(None, 1)) > 1 else "?" for l in lines[1:]]
        stack = " | ".join(frames)
        part = next((name for name, pattern in PARTS if re.search(pattern, stack)), "other")
        total += 1
        parts[part] += 1
        if lines[1].split()[0].startswith("ffffffff"):
            kernel[part] += 1
    for part, n in parts.most_common():
        print(f"{100 * n / total:5.1f}%  (kernel {100 * kernel[part] / total:4.1f}%)  {part}")
    print(f"{total} samples")


if __name__ == "__main__":
    main()
