/**
 * Chromium (Debian's `chromium`), driven by puppeteer-core over CDP: its own phone emulation and
 * colour-scheme emulation per page. Each view is a page in a browser context (a window) of its
 * own: two pages of one window do not draw at the same time.
 */
import puppeteer from "puppeteer-core";
import type { Engine, Network } from "./engine.js";
import { puppeteerView } from "./puppeteer-view.js";

const PHONE_AGENT = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

export async function launchChromium(network: Network): Promise<Engine> {
  const browser = await puppeteer.launch({
    executablePath: process.env["CHROMIUM"] ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--hide-scrollbars",
      "--font-render-hinting=none",
      `--proxy-server=http://127.0.0.1:${network.proxyPort}`,
      "--ignore-certificate-errors",
    ],
  });
  return {
    name: "chromium",
    async open(viewing) {
      const page = await (await browser.createBrowserContext()).newPage();
      await page.emulate({
        viewport: { width: viewing.width, height: viewing.height, deviceScaleFactor: 1, isMobile: viewing.phone, hasTouch: viewing.phone },
        userAgent: viewing.phone ? PHONE_AGENT : await browser.userAgent(),
      });
      await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: viewing.scheme }]);
      await page.goto(network.blankUrl);
      return puppeteerView(page);
    },
    close: () => browser.close(),
  };
}
