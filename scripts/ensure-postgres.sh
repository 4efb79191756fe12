#!/usr/bin/env bash
# Makes a throwaway PostgreSQL cluster available on 127.0.0.1, with no manual steps.
#
#   eval "$(bash scripts/ensure-postgres.sh start)"   # exports DATABASE_URL, MAILRENDER_PG_DATA, MAILRENDER_PG_BIN
#   bash scripts/ensure-postgres.sh stop "$MAILRENDER_PG_DATA"
#
# `start` needs the PostgreSQL server binaries (`scripts/bootstrap` installs them), initialises a cluster in a temp directory owned by the `postgres` user (initdb refuses to run
# as root), starts it on a free loopback port and prints `export` lines on stdout. Progress goes to
# stderr. Any failure exits non-zero: callers must fail rather than skip the PostgreSQL tests.
set -euo pipefail

log() { echo "ensure-postgres: $*" >&2; }

find_bin_dir() {
  local dir
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return 0
  fi
  # Debian keeps the server binaries off PATH, one directory per major version; take the newest.
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
  else
    "$@"
  fi
}

start() {
  local bin_dir data_dir port
  bin_dir="$(find_bin_dir)" || {
    log "PostgreSQL server binaries not found: run scripts/bootstrap (make test does)"
    exit 1
  }
  data_dir="$(mktemp -d /tmp/mailrender-pg.XXXXXX)"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/sh postgres
    chown postgres: "$data_dir"
  fi
  chmod 700 "$data_dir"
  log "initialising a cluster in $data_dir ($bin_dir)"
  as_owner "$bin_dir/initdb" -D "$data_dir/data" -U postgres -A trust -E UTF8 --locale=C >"$data_dir/initdb.log" 2>&1 || {
    cat "$data_dir/initdb.log" >&2
    exit 1
  }
  port="$(free_port)"
  log "starting on 127.0.0.1:$port"
  as_owner "$bin_dir/pg_ctl" -D "$data_dir/data" -l "$data_dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $data_dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >&2 || {
    cat "$data_dir/server.log" >&2
    exit 1
  }
  echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
  echo "export MAILRENDER_PG_DATA=$data_dir"
  echo "export MAILRENDER_PG_BIN=$bin_dir"
}

stop() {
  local data_dir="${1:?usage: ensure-postgres.sh stop <dir>}" bin_dir
  bin_dir="${MAILRENDER_PG_BIN:-$(find_bin_dir)}"
  if [ -f "$data_dir/data/postmaster.pid" ]; then
    as_owner "$bin_dir/pg_ctl" -D "$data_dir/data" -m immediate -w stop >&2 || true
  fi
  rm -rf "$data_dir"
}

case "${1:-start}" in
  start) start ;;
  stop) shift; stop "$@" ;;
  *) log "usage: $0 start | stop <dir>"; exit 2 ;;
esac
