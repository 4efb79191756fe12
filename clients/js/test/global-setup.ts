/**
 * Before any test file: the engine and server libraries must be built (scripts/test-client-js.sh
 * builds them), and the client is built here so the child-process and packed tests run the current
 * source, never a stale dist/.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CLIENT_DIR, ENGINE_LIB, REPO_ROOT, SERVER_CLI } from "./helpers/paths.js";

export default function setup(): void {
  for (const [file, how] of [
    [ENGINE_LIB, "npm run build -w @mailrender/engine"],
    [SERVER_CLI, "npm run build -w @mailrender/server"],
  ] as const) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`${how}\` from ${REPO_ROOT} (or scripts/test-client-js.sh)`);
  }
  execFileSync(process.execPath, [`${REPO_ROOT}node_modules/.bin/tsx`, `${CLIENT_DIR}scripts/build.ts`], { cwd: CLIENT_DIR, stdio: "inherit" });
}
