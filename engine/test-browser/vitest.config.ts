import { defineConfig } from "vitest/config";

// One browser for the whole run: a single file, its tests in sequence.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["test-browser/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
