import { defineConfig } from "vitest/config";

// Integration tests start real servers and real databases: generous timeouts,
// and at most two files at once so a 2-core CI machine is not oversubscribed.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
