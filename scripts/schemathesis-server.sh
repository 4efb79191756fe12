#!/usr/bin/env bash
# Property-based API testing: schemathesis (pinned, from PyPI, in server/.venv) generates requests
# from the served OpenAPI document against a real server on SQLite and runs every check. Bounded
# (max examples per operation, fixed seed) so it takes about a minute; any failure fails the suite.
# Arguments are passed to `st run` (e.g. `--include-operation-id createTemplate --seed 2`).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
venv="$root/server/.venv"
SCHEMATHESIS_VERSION="4.32.5"

if [ ! -x "$venv/bin/st" ] || [ "$("$venv/bin/st" --version 2>/dev/null)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
admin_key="sk_live_$(python3 -c 'import secrets; print(secrets.token_hex(32))')"
(
  cd server
  unset DATABASE_URL
  PORT="$port" MAILRENDER_SQLITE_PATH="$work/schemathesis.db" MAILRENDER_ADMIN_KEY="$admin_key" LOG_LEVEL="${LOG_LEVEL:-warn}" \
    exec node --import tsx src/cli.ts
) >"$work/server.log" 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

for _ in $(seq 120); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
  sleep 0.5
done

# The SDK routes take a key scoped to render targets, which the admin key is not (schemathesis.toml
# sends this one to them, the admin key to the rest).
render_key="$(curl -sf -X POST "http://127.0.0.1:$port/api/v1/keys" -H "Authorization: Bearer $admin_key" \
  -H "Content-Type: application/json" -d '{"name":"schemathesis-sdk","targets":["html","mjml","react-email"]}' |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')"
# A stored template for them to fetch and render (generated ids would only ever find nothing).
# Without its template_id: the fixture's is not a UUID, which the service refuses; it gets the service's own.
template_id="$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["template"]; t.pop("template_id"); print(json.dumps(t))' fixtures/render/realistic-receipt/case.json |
  curl -sf -X POST "http://127.0.0.1:$port/api/v1/templates" -H "Authorization: Bearer $admin_key" -H "Content-Type: application/json" --data-binary @- |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')"
# The key the key-changing operations act on: the admin key's id is readable (list, /api/v1/me), and
# rotating or revoking it would leave every later request a 401.
spare_key_id="$(curl -sf -X POST "http://127.0.0.1:$port/api/v1/keys" -H "Authorization: Bearer $admin_key" \
  -H "Content-Type: application/json" -d '{"name":"schemathesis-spare","role":"viewer"}' |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')"
export SCHEMATHESIS_ADMIN_KEY="$admin_key" SCHEMATHESIS_RENDER_KEY="$render_key" SCHEMATHESIS_TEMPLATE_ID="$template_id" SCHEMATHESIS_SPARE_KEY_ID="$spare_key_id"

cd server
"$venv/bin/st" --config-file schemathesis.toml run "http://127.0.0.1:$port/openapi.json" \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-20}" --seed 1 --generation-database none \
  --no-color "$@" || {
  echo "schemathesis-server: failures above; server log:" >&2
  tail -50 "$work/server.log" >&2
  exit 1
}
