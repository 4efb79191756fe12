import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { DatabaseConfig } from "../../src/config.js";

const SERVER_DIR = fileURLToPath(new URL("../..", import.meta.url));
/** Each process compiles TypeScript on start (tsx): seconds on a 2-core machine, far more when it is loaded. */
export const CLI_TIMEOUT_MS = 90_000;

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The environment that points the server at one database, without the test runner's own DATABASE_URL. */
export function databaseEnv(database: DatabaseConfig): Record<string, string> {
  return database.kind === "sqlite" ? { MAILRENDER_SQLITE_PATH: database.path } : { DATABASE_URL: database.url };
}

/** `mailrender-server <args>` as an operator runs it, in its own process; resolves when it exits. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const { DATABASE_URL: _ignored, MAILRENDER_SQLITE_PATH: _alsoIgnored, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], {
    cwd: SERVER_DIR,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mailrender-server ${args.join(" ")} did not exit within ${CLI_TIMEOUT_MS} ms; stderr: ${stderr}`));
    }, CLI_TIMEOUT_MS);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
