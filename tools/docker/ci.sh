#!/usr/bin/env bash
# The Docker self-host, run for real: the published Dockerfile and docker-compose.yml on
# images made from Debian's packages (tools/docker/base-images.sh), as CI runs it
# (.ci/run) and anyone may by hand:
#
#   cargo build --release --locked -p omweso && tools/docker/ci.sh
#
# (CI gives it the debug build with the web files embedded instead, OMWESO_BINARY=
# target/debug/omweso after `cargo build -p omweso --features embed-web`: see .ci/run.)
#
# It starts a Docker daemon if none answers, builds the omweso image around the
# binary already built (OMWESO_BINARY, default target/release/omweso), brings up the
# compose file (PostgreSQL and omweso), waits for Docker's own health status of both,
# plays a whole game through the real protocol (`omweso tournament-sim`) and checks its
# end over the HTTP API, restarts everything twice (`restart`, then `down` and `up`) and
# finds the same game, checks the server's uid and its SQLite volume, and runs the
# cluster profile behind its proxy (its secrets made by the compose file, NATS asking for
# its password). Everything it
# made but the images (the cache) is removed at the end, also on failure.
#
# With no daemon to be had it says why and exits 0, unless OMWESO_DOCKER_REQUIRED is set
# (CI sets it): then it fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
export DOCKER_BUILDKIT=0 COMPOSE_DOCKER_CLI_BUILD=0
binary=$(realpath "${OMWESO_BINARY:-target/release/omweso}")
image=omweso-local/omweso:ci
runtime_image=omweso-local/debian:bookworm-slim
project=omweso-ci
cluster_project=omweso-ci-cluster
sqlite_volume=omweso-ci-sqlite
work=$(mktemp -d)
started_daemon=
skipped=

# --- phases and their times ------------------------------------------------------------
step_started=$(date +%s)
run_started=$step_started
phase_name=
phase() { # NAME: ends the phase before (printing its time) and starts NAME
    local now
    now=$(date +%s)
    [ -z "$phase_name" ] || echo "   ($phase_name: $((now - step_started)) s)"
    phase_name=$1
    step_started=$now
    [ -z "$1" ] || echo "-- $1"
}
fail() {
    echo "tools/docker/ci.sh: FAILED: $*" >&2
    exit 1
}

# --- cleanup, also on failure ----------------------------------------------------------
remember_anonymous_volumes() {
    local c
    for c in $(compose ps -q); do
        docker inspect --format '{{range .Mounts}}{{if and (eq .Type "volume") (eq (len .Name) 64)}}{{.Name}}{{"\n"}}{{end}}{{end}}' "$c"
    done >>"$work/anonymous-volumes"
}
compose() { docker-compose -p "$project" --env-file "$work/env" -f docker-compose.yml "$@"; }
cluster_compose() {
    docker-compose -p "$cluster_project" --env-file "$work/cluster.env" -f docker-compose.yml \
        --profile cluster "$@"
}
cleanup() {
    local code=$?
    set +e
    if [ "$code" != 0 ] && [ -f "$work/env" ]; then
        echo "-- the containers' last output, for the failure above"
        compose logs --no-color --tail=40 2>/dev/null
        [ -f "$work/cluster.env" ] && cluster_compose logs --no-color --tail=40 2>/dev/null
    fi
    [ -f "$work/env" ] && compose down -v --remove-orphans >/dev/null 2>&1
    [ -f "$work/cluster.env" ] && cluster_compose down -v --remove-orphans >/dev/null 2>&1
    docker rm -f omweso-ci-sqlite >/dev/null 2>&1
    docker volume rm "$sqlite_volume" >/dev/null 2>&1
    [ -f "$work/anonymous-volumes" ] && xargs -r docker volume rm <"$work/anonymous-volumes" >/dev/null 2>&1
    if [ -n "$started_daemon" ]; then
        kill "$started_daemon" 2>/dev/null
        for _ in $(seq 20); do kill -0 "$started_daemon" 2>/dev/null || break; sleep 0.5; done
    fi
    rm -rf "$work"
    if [ -n "$skipped" ]; then
        echo "tools/docker/ci.sh: SKIPPED: the Docker self-host was NOT tested" >&2
    else
        echo "tools/docker/ci.sh: $( [ "$code" = 0 ] && echo passed || echo FAILED) in $(($(date +%s) - run_started)) s"
    fi
}
trap cleanup EXIT

# --- a daemon --------------------------------------------------------------------------
no_daemon() { # WHY
    echo "tools/docker/ci.sh: no Docker daemon: $1" >&2
    if [ -n "${OMWESO_DOCKER_REQUIRED:-}" ]; then
        fail "OMWESO_DOCKER_REQUIRED is set, so the Docker run may not be skipped"
    fi
    skipped=1
    exit 0
}
start_daemon() {
    docker info >/dev/null 2>&1 && return
    command -v docker >/dev/null || no_daemon "no docker client (apt-get install docker.io)"
    command -v dockerd >/dev/null || no_daemon "none answers and there is no dockerd to start (apt-get install docker.io)"
    [ "$(id -u)" = 0 ] || no_daemon "none answers, and starting dockerd needs root"
    local log=/var/log/omweso-dockerd.log
    # vfs: the one storage driver that works everywhere, overlay on overlay included.
    dockerd --storage-driver "${OMWESO_DOCKERD_STORAGE_DRIVER:-vfs}" >>"$log" 2>&1 &
    started_daemon=$!
    for _ in $(seq 60); do
        docker info >/dev/null 2>&1 && { echo "started dockerd (pid $started_daemon, log $log)"; return; }
        kill -0 "$started_daemon" 2>/dev/null || break
        sleep 0.5
    done
    kill "$started_daemon" 2>/dev/null || true
    started_daemon=
    no_daemon "dockerd did not start; the end of $log:
$(tail -5 "$log")"
}

# --- HTTP checks -----------------------------------------------------------------------
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

wait_healthy() { # CONTAINER...: Docker's health status of each is "healthy"
    local c status
    for c in "$@"; do
        for _ in $(seq 120); do
            status=$(docker inspect --format '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$c")
            [ "$status" = healthy ] && break
            [ "$status" = unhealthy ] || [ "$status" = none ] && fail "$c is $status"
            sleep 1
        done
        [ "$status" = healthy ] || fail "$c not healthy after 120 s (status: $status)"
    done
}

wait_http() { # URL: answers 200 within 60 s
    for _ in $(seq 120); do
        curl -fsS -o /dev/null "$1" 2>/dev/null && return
        sleep 0.5
    done
    fail "$1 does not answer 200"
}

token() { # BASE: a new guest session's token
    curl -fsS -X POST -H 'content-type: application/json' -d '{"name":"ci"}' "$1/api/session" | jq -r .token
}

play_game() { # BASE: plays a two-player round robin to its end; prints the game's id
    local base=$1 out id t
    out="$work/sim.$RANDOM"
    # --think-ms: the players stay under the compose file's OMWESO_RATE_LIMIT (20 a second).
    "$binary" tournament-sim --url "$base" --players 2 --system round-robin --think-ms 60 \
        --seed 7 --json >"$out" 2>&1 || { cat "$out" >&2; fail "tournament-sim failed on $base"; }
    t=$(token "$base")
    id=$(curl -fsS -H "authorization: Bearer $t" "$base/api/tournaments?list=finished" \
        | jq -r '.tournaments[0].tournament_id')
    [ -n "$id" ] && [ "$id" != null ] || fail "no finished tournament on $base"
    curl -fsS -H "authorization: Bearer $t" "$base/api/tournaments/$id" \
        | jq -r '.rounds[0].pairings[0].game_id'
}

game_record() { # BASE ID: the game's status, outcome and moves, as one line of JSON, its keys
    # sorted: a game read from memory and one read back from the store after the restart
    # say the same in another key order (JSON's objects have none)
    local t
    t=$(token "$1")
    curl -fsS -H "authorization: Bearer $t" "$1/api/games/$2" \
        | jq -cS '{status, outcome, history}'
}

check_game() { # BASE ID EXPECTED: the game is still as recorded
    local now
    now=$(game_record "$1" "$2") || fail "game $2 not reachable at $1"
    [ "$now" = "$3" ] || fail "game $2 changed: was $3, is now $now"
}

# --- the run ---------------------------------------------------------------------------
phase "daemon"
start_daemon
[ -x "$binary" ] || fail "no binary at $binary: cargo build --release --locked -p omweso first"
for tool in docker-compose jq curl python3; do
    command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install $tool)"
done

phase "base images from Debian's packages (tools/docker/base-images.sh)"
tools/docker/base-images.sh

phase "the omweso image: the published Dockerfile, on the local images, with the host's binary"
mkdir -p "$work/context/target/release"
cp "$binary" "$work/context/target/release/omweso"
old_image=$(docker image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
docker build --quiet -f Dockerfile --tag "$image" \
    --build-arg BUILDER_IMAGE="$runtime_image" --build-arg RUNTIME_IMAGE="$runtime_image" \
    --build-arg PREBUILT=1 "$work/context" 2>&1 | grep -v -e DEPRECATED -e BuildKit -e '^ *environment-variable' -e '^$' || true
new_image=$(docker image inspect --format '{{.Id}}' "$image") || fail "the image was not built"
if [ -n "$old_image" ] && [ "$old_image" != "$new_image" ]; then
    docker rmi "$old_image" >/dev/null 2>&1 || true
fi
# The replaced image's build stage (a copy of an older binary) is left untagged: remove
# it, and only what was built on our base images (their label).
docker image prune --force --filter label=org.omweso.recipe >/dev/null 2>&1 || true
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' "$image"

phase "docker-compose up: PostgreSQL and omweso, until Docker calls both healthy"
port=$(free_port)
cat >"$work/env" <<EOF
POSTGRES_USER=omweso
POSTGRES_PASSWORD=ci-$RANDOM$RANDOM
POSTGRES_DB=omweso
OMWESO_PORT=$port
OMWESO_METRICS_PORT=$(free_port)
OMWESO_IMAGE=$image
OMWESO_POSTGRES_IMAGE=omweso-local/postgres:15
EOF
base="http://127.0.0.1:$port"
compose up -d --no-build
db=$(compose ps -q db)
server=$(compose ps -q omweso)
wait_healthy "$db" "$server"

phase "a whole game through the protocol (omweso tournament-sim), its end over the HTTP API"
game=$(play_game "$base")
record=$(game_record "$base" "$game")
jq -e '.status == "finished" and .outcome != null and (.history | length) > 0' <<<"$record" >/dev/null \
    || fail "game $game did not end: $record"
echo "game $game: $(jq -r '"\(.status), \(.history | length) moves, outcome \(.outcome | tostring)"' <<<"$record" | cut -c1-160)"

phase "docker-compose restart: the same game"
compose restart
wait_healthy "$db" "$server"
check_game "$base" "$game" "$record"

phase "docker-compose down, then up (volumes kept): the same game"
# The containers' anonymous volumes (the image's VOLUME /var/lib/omweso) outlive a `down`
# without -v: noted, for the cleanup.
remember_anonymous_volumes
compose down
compose up -d --no-build
db=$(compose ps -q db)
server=$(compose ps -q omweso)
wait_healthy "$db" "$server"
check_game "$base" "$game" "$record"

phase "the server runs as uid 10001"
uid=$(docker exec "$server" id -u)
[ "$uid" = 10001 ] || fail "omweso runs as uid $uid, not 10001"
compose down -v

phase "the image alone, SQLite in its volume: the file is the server's and outlives the container"
sqlite_port=$(free_port)
sqlite_run() {
    docker run -d --name omweso-ci-sqlite -v "$sqlite_volume:/var/lib/omweso" \
        -p "127.0.0.1:$sqlite_port:8080" "$image" >/dev/null
    wait_healthy omweso-ci-sqlite
}
sqlite_run
sqlite_base="http://127.0.0.1:$sqlite_port"
sqlite_game=$(play_game "$sqlite_base")
sqlite_record=$(game_record "$sqlite_base" "$sqlite_game")
owner=$(docker run --rm -v "$sqlite_volume:/data" "$runtime_image" stat -c '%u' /data/omweso.db) \
    || fail "no omweso.db in the volume"
[ "$owner" = 10001 ] || fail "omweso.db in the volume is owned by uid $owner, not 10001"
docker rm -f omweso-ci-sqlite >/dev/null
sqlite_run
check_game "$sqlite_base" "$sqlite_game" "$sqlite_record"
docker rm -f omweso-ci-sqlite >/dev/null
docker volume rm "$sqlite_volume" >/dev/null

# --- the cluster profile ---------------------------------------------------------------
run_cluster() {
    local proxy_port proxy killed i greeting
    proxy_port=$(free_port)
    cat "$work/env" >"$work/cluster.env"
    cat >>"$work/cluster.env" <<EOF
OMWESO_NATS_IMAGE=omweso-local/nats:2
OMWESO_PROXY_IMAGE=omweso-local/nginx:1
OMWESO_PROXY_PORT=$proxy_port
OMWESO_NATS_URL=nats://nats:4222
OMWESO_NODE_NAME=omweso-1
OMWESO_TRUSTED_PROXY=172.16.80.2
EOF
    proxy="http://127.0.0.1:$proxy_port"
    cluster_compose up -d --no-build
    wait_healthy "$(cluster_compose ps -q db)" "$(cluster_compose ps -q omweso)" \
        "$(cluster_compose ps -q omweso-2)" "$(cluster_compose ps -q omweso-3)"
    wait_http "$proxy/healthz"
    # NATS lets in only those with the password the compose file made (the nodes):
    # its greeting, read from inside a node's container, says it asks for one.
    greeting=$(docker exec "$(cluster_compose ps -q omweso-2)" \
        bash -c 'exec 3<>/dev/tcp/nats/4222 && head -c 1024 <&3' | head -1) \
        || fail "could not reach NATS from a node"
    grep -q '"auth_required":true' <<<"$greeting" || fail "NATS asks for no password: $greeting"
    game=$(play_game "$proxy")
    record=$(game_record "$proxy" "$game")
    jq -e '.status == "finished"' <<<"$record" >/dev/null || fail "cluster game $game did not end: $record"
    killed=$(cluster_compose ps -q omweso-2)
    docker kill "$killed" >/dev/null
    # Enough requests that the proxy's rotation meets the dead node.
    for i in 1 2 3 4 5 6; do
        check_game "$proxy" "$game" "$record"
        curl -fsS -o /dev/null "$proxy/healthz" || fail "the site is not healthy through the proxy ($i)"
    done
    echo "cluster: game $game finished through the proxy, still there with omweso-2 killed"
    cluster_compose down -v
}

phase "the cluster profile: its secrets made, NATS with a password, three nodes behind nginx; one node killed"
run_cluster
phase ""
