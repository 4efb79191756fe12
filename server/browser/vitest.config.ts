import { defineConfig } from "vitest/config";

// The studio in a real browser (Debian chromium via puppeteer-core): one file, one browser.
export default defineConfig({
  test: {
    root: new URL(".", import.meta.url).pathname,
    include: ["*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
  },
});
