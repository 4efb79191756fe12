#!/usr/bin/env node

// Runs the checked mailrender-engine binary with this process's arguments and stdio.
const { spawnSync } = require("node:child_process");
const { enginePath, EngineNotInstalled } = require("../index.js");

let path;
try {
  path = enginePath();
} catch (error) {
  if (!(error instanceof EngineNotInstalled)) throw error;
  process.stderr.write(`mailrender-engine: ${error.message}\n`);
  process.exit(2);
}
const run = spawnSync(path, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  process.stderr.write(`mailrender-engine: cannot run ${path}: ${run.error.message}\n`);
  process.exit(2);
}
process.exit(run.status ?? 1);
