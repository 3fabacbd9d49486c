#!/bin/sh
# Makes the database on first start from POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB
# (as the official postgres image does), then runs PostgreSQL as the postgres user.
set -eu
# Any other command (a shell, psql) runs as it is, as in the official image.
[ "${1:-}" = postgres ] || exec "$@"
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /run/postgresql
    chown postgres:postgres "$PGDATA" /run/postgresql
    chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "docker-entrypoint: POSTGRES_PASSWORD is empty; set it (the server is reached over the network)" >&2
        exit 1
    fi
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
    initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA" >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    if [ "$db" != postgres ]; then
        # Single-user mode: no server listening before the database exists.
        echo "CREATE DATABASE \"$db\" OWNER \"$user\";" | postgres --single -D "$PGDATA" postgres >/dev/null
    fi
    echo "docker-entrypoint: made database $db for $user in $PGDATA"
fi
shift
exec postgres -D "$PGDATA" -c listen_addresses='*' -c jit=off "$@"
