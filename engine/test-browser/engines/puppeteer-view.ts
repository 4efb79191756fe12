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
      // Not beyond the viewport: Chromium draws a right-to-left page shifted (its content centred
      // at 100–700 px drawn at 210–800 px in an 800 px view); the view grows to the page's height instead.
      await page.screenshot({ path, fullPage: true, captureBeyondViewport: false });
    },
  };
}
