#!/usr/bin/env bash
# Profiles the server under `omweso loadgen` and says where its CPU goes, by part of the
# server (docs/performance.md, issue 15). Needs perf (Debian's linux-perf) and a release
# build. Usage: tools/profile_server.sh OUT_PREFIX [loadgen flags...]
# e.g.  tools/profile_server.sh /tmp/prof --games 1000 --spectators 2 --seconds 20 --think-ms 160
set -euo pipefail
out=$1
shift
bin="$(dirname "$0")/../target/release/omweso"
"$bin" loadgen --spawn-server "$@" >"$out.report" 2>"$out.err" &
loadgen=$!
pid=
for _ in $(seq 100); do
    pid=$(grep -o 'server pid [0-9]*' "$out.err" | awk '{print $3}' || true)
    [ -n "$pid" ] && break
    sleep 0.2
done
[ -n "$pid" ] || { echo "the server did not start; see $out.err" >&2; exit 1; }
sleep 8 # the set-up and the warm-up
# cpu-clock: the VMs this runs on often have no hardware counters. DWARF call graphs: the
# release build keeps line tables but no frame pointers.
perf record -e cpu-clock -F 1999 --call-graph dwarf,16384 -p "$pid" -o "$out.data" -- sleep 6 \
    >/dev/null 2>&1
wait "$loadgen"
perf script -i "$out.data" -F comm,tid,ip,sym --no-inline 2>/dev/null >"$out.script"
python3 "$(dirname "$0")/profile_categories.py" <"$out.script"
