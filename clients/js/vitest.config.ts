import { defineConfig } from "vitest/config";

// The suite starts real servers (one per file) and child processes: generous timeouts, and at most
// two files at once so a 2-core machine is not oversubscribed.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
