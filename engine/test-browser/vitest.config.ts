import { defineConfig } from "vitest/config";

// One file per engine, the engines side by side (one worker each); the pages are rendered once, first.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["test-browser/**/*.test.ts"],
    globalSetup: ["test-browser/pages.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
