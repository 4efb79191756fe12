/** A view over a puppeteer page (Chromium over CDP, Firefox over WebDriver BiDi) showing the blank page. */
import type { Page } from "puppeteer-core";
import type { View } from "./engine.js";

export function puppeteerView(page: Page): View {
  return {
    show: async (html) => {
      await page.setContent(html, { waitUntil: "load" });
    },
    // Our arguments and results are plain JSON, which puppeteer's handle-aware types cannot see.
    evaluate: <A extends unknown[], R>(fn: (...args: A) => R, ...args: A) =>
      page.evaluate(fn as (...args: unknown[]) => unknown, ...args) as Promise<Awaited<R>>,
    screenshot: async (path) => {
      await page.screenshot({ path, fullPage: true });
    },
  };
}
