#!/usr/bin/env bash
# The audience across nodes: N omweso nodes (debug build) on one fresh PostgreSQL database
# and the local NATS, tournament-sim's watchers spread over them; each node's CPU time
# (utime+stime from /proc) over the run and its cluster counters.
# usage: tools/cluster_bench.sh NODES WATCHERS   (docs/performance.md, the audience at scale)
# NODES 1 runs one node on the same database, without NATS, for comparison.
set -euo pipefail
n=$1; watchers=$2
bin=${OMWESO_BIN:-target/debug/omweso}
db="bench_$(date +%s)"
psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $db"
url="postgres://postgres@127.0.0.1:5432/$db"
pids=(); servers=()
# The nodes' NATS credentials (the local NATS asks for none, and takes any) and the
# cluster's secret, new for each run (docs/scaling.md#trust-between-nodes).
export OMWESO_NATS_USER=omweso OMWESO_NATS_PASSWORD=bench
OMWESO_CLUSTER_SECRET=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
export OMWESO_CLUSTER_SECRET
for i in $(seq 1 "$n"); do
    port=$((18180 + i)); mport=$((19180 + i))
    nats=(); [ "$n" -gt 1 ] && nats=(--nats-url nats://127.0.0.1:4222 --node-name "n$i")
    OMWESO_SESSIONS_PER_IP_PER_MINUTE=1000000 OMWESO_GAMES_PER_SESSION_PER_MINUTE=1000000 \
    OMWESO_GAMES_PER_IP_PER_MINUTE=1000000 OMWESO_OPEN_GAMES_PER_SESSION=1000000 \
    OMWESO_SOCKETS_PER_SESSION=1000000 OMWESO_SOCKETS_PER_IP=1000000 OMWESO_CONNECTIONS_PER_IP=1000000 \
    OMWESO_RATE_LIMIT=10000 OMWESO_LOG=warn \
        "$bin" serve --addr 127.0.0.1:$port --metrics-addr 127.0.0.1:$mport --database-url "$url" "${nats[@]}" \
        >/tmp/bench-node$i.log 2>&1 &
    pids+=($!); servers+=(--server "http://127.0.0.1:$port")
done
sleep 3
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
before=(); for p in "${pids[@]}"; do before+=($(cpu $p)); done
start=$(date +%s.%N)
ulimit -n "$(ulimit -Hn)" || true
"$bin" tournament-sim "${servers[@]}" --players 200 --rounds 2 --think-ms 160 --seed 2 --watchers "$watchers" | tail -25
end=$(date +%s.%N)
tick=$(getconf CLK_TCK)
for i in "${!pids[@]}"; do
    used=$(( $(cpu ${pids[$i]}) - ${before[$i]} ))
    m=$(curl -s 127.0.0.1:$((19181 + i))/metrics | grep -E "^omweso_cluster_(frames_received|takeovers|outbox_full|publish_failures|refused)_total" | tr '\n' ' ')
    echo "node $((i+1)): cpu $(echo "scale=2; $used / $tick" | bc) s over $(echo "$end - $start" | bc) s; $m"
done
kill "${pids[@]}"; wait 2>/dev/null || true
psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE $db WITH (FORCE)"
