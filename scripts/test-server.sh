#!/usr/bin/env bash
# The server suite against both databases: starts a throwaway PostgreSQL (installing it if needed),
# runs vitest, and always stops the cluster. Without PostgreSQL the suite fails; it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

pg_env="$(bash "$root/scripts/ensure-postgres.sh" start)" || {
  echo "test-server: PostgreSQL could not be started; the server suite needs it" >&2
  exit 1
}
eval "$pg_env"
trap 'bash "$root/scripts/ensure-postgres.sh" stop "$MAILRENDER_PG_DATA"' EXIT

export MAILRENDER_TEST_DATABASE_URL="$DATABASE_URL"
unset DATABASE_URL # the suite creates its own databases; the server must not pick this one up by accident

node_modules/.bin/tsx server/scripts/build-studio.ts # the studio's assets, served by the server

if [ "$#" -eq 0 ]; then
  # The storm loads the whole machine for seconds: it runs alone, after the rest, so that it does not
  # slow another file's timed checks (a render's time budget, health checks during a render).
  (cd server && ../node_modules/.bin/vitest run --exclude test/storm.test.ts && ../node_modules/.bin/vitest run test/storm.test.ts)
else
  (cd server && ../node_modules/.bin/vitest run "$@")
fi

# The property-based run against a real server, unless a subset of the suite was asked for.
if [ "$#" -eq 0 ]; then
  bash "$root/scripts/schemathesis-server.sh"
fi
