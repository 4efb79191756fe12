import { defineConfig } from "vitest/config";

// One file per engine, the engines side by side (one worker each); the pages are rendered once, first.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["test-browser/**/*.test.ts"],
    globalSetup: ["test-browser/pages.ts"],
    // One worker per engine even on two cores: much of an engine's time is spent waiting on its browser.
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
