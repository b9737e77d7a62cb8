#!/usr/bin/env bash
# Starts PostgreSQL and Redis from Debian's packages on loopback for the API tests, as root in a
# fresh container (no systemd): a throwaway PostgreSQL cluster under $FORJA_PGDATA owned by the
# postgres user, a role `forja` that may create databases (each API test server creates and drops
# its own), and a Redis without persistence. Prints the export lines for DATABASE_URL_TEST and
# REDIS_URL_TEST; `.ci/run` evaluates them. Idempotent: already running services are reused.
#   eval "$(.ci/services.sh)"
set -euo pipefail
# Not 5432: the Debian package may have started its own cluster there (with peer/password auth).
PG_PORT="${FORJA_PG_PORT:-55432}"
REDIS_PORT="${FORJA_REDIS_PORT:-6379}"
PGDATA="${FORJA_PGDATA:-/tmp/forja-pgdata}"
PGBIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"

if ! "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; then
  if [ ! -f "$PGDATA/PG_VERSION" ]; then
    mkdir -p "$PGDATA"
    chown postgres:postgres "$PGDATA"
    # C.UTF-8: text sorts by code point, as in SQLite, so ordered lists match on both engines.
    su postgres -c "$PGBIN/initdb -D '$PGDATA' -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8" >&2
  fi
  su postgres -c "$PGBIN/pg_ctl -D '$PGDATA' -l '$PGDATA/server.log' -w \
    -o '-c listen_addresses=127.0.0.1 -p $PG_PORT -k /tmp -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off' start" >&2
fi
psql_admin() { "$PGBIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -qtA "$@"; }
if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = 'forja'")" != "1" ]; then
  psql_admin -c "CREATE ROLE forja LOGIN CREATEDB PASSWORD 'forja'" >&2
  # Lets DROP DATABASE ... WITH (FORCE) end the test servers' leftover connections.
  psql_admin -c "GRANT pg_signal_backend TO forja" >&2
fi
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = 'forja'")" != "1" ]; then
  psql_admin -c "CREATE DATABASE forja OWNER forja TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'" >&2
fi

if ! redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
    --logfile /tmp/forja-redis.log >&2
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
fi

echo "export DATABASE_URL_TEST=postgres://forja:forja@127.0.0.1:$PG_PORT/forja"
echo "export REDIS_URL_TEST=redis://127.0.0.1:$REDIS_PORT"
