#!/usr/bin/env bash
# An upgrade keeps every game: an older build plays a tournament on a database (an SQLite
# file and a fresh PostgreSQL database), is stopped, and a newer build opens the same
# database (running its new migrations), finds the game with the same moves, plays another
# tournament on it, and, on PostgreSQL, does the same as one of several nodes (NATS).
# usage: tools/upgrade_check.sh OLD_BINARY NEW_BINARY   (needs curl, jq, psql, local NATS)
set -euo pipefail
old=$1; new=$2
work=$(mktemp -d)
pg_db="upgrade_$(date +%s)"
pid=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

serve() { # BINARY DATABASE_URL [ARGS...]: starts a server on a free port; sets $pid, $base
    local bin=$1 url=$2 port
    shift 2
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    OMWESO_LOG=warn "$bin" serve --addr "127.0.0.1:$port" --database-url "$url" "$@" \
        >>"$work/server.log" 2>&1 &
    pid=$!
    base="http://127.0.0.1:$port"
    for _ in $(seq 100); do curl -fsS "$base/healthz" >/dev/null 2>&1 && return; sleep 0.2; done
    tail -20 "$work/server.log" >&2
    fail "$bin did not answer on $base"
}

stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }

token() { curl -fsS -X POST -H 'content-type: application/json' -d '{"name":"up"}' "$base/api/session" | jq -r .token; }

play() { # BINARY: a two-player round robin to its end on $base; prints its game's id
    "$1" tournament-sim --url "$base" --players 2 --system round-robin --think-ms 20 --seed 7 \
        --json >"$work/sim.json" 2>&1 || { cat "$work/sim.json" >&2; fail "tournament-sim on $base"; }
    local t id
    t=$(token)
    id=$(curl -fsS -H "authorization: Bearer $t" "$base/api/tournaments?list=finished" \
        | jq -r '.tournaments[0].tournament_id')
    curl -fsS -H "authorization: Bearer $t" "$base/api/tournaments/$id" | jq -r '.rounds[0].pairings[0].game_id'
}

record() { # ID: status, outcome and moves as one line, keys sorted (read live or from the store, a game's JSON keys come in another order)
    curl -fsS -H "authorization: Bearer $(token)" "$base/api/games/$1" | jq -cS '{status, outcome, history}'
}

check() { # KIND DATABASE_URL [NEW_ARGS...]
    local kind=$1 url=$2 game before after second
    shift 2
    serve "$old" "$url"
    game=$(play "$old")
    before=$(record "$game")
    jq -e '.status == "finished" and (.history | length) > 0' <<<"$before" >/dev/null \
        || fail "$kind: the old build's game did not end: $before"
    stop
    serve "$new" "$url" "$@"
    after=$(record "$game")
    [ "$after" = "$before" ] || fail "$kind: game $game changed across the upgrade"
    second=$(play "$new")
    jq -e '.status == "finished"' <<<"$(record "$second")" >/dev/null \
        || fail "$kind: the new build could not play on the upgraded database"
    stop
    echo "$kind: game $game the same after the upgrade ($(jq '.history | length' <<<"$after") moves); game $second played after it"
}

check "SQLite" "sqlite://$work/omweso.db?mode=rwc"
psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $pg_db"
check "PostgreSQL" "postgres://postgres@127.0.0.1:5432/$pg_db"
psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE $pg_db WITH (FORCE)"
psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $pg_db"
# A node of several needs NATS credentials (the local NATS asks for none, and takes any)
# and the cluster's secret (docs/scaling.md#trust-between-nodes).
OMWESO_CLUSTER_SECRET=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
export OMWESO_NATS_USER=omweso OMWESO_NATS_PASSWORD=upgrade OMWESO_CLUSTER_SECRET
check "PostgreSQL, the new build as a node of several" "postgres://postgres@127.0.0.1:5432/$pg_db" \
    --nats-url nats://127.0.0.1:4222 --node-name upgrade
