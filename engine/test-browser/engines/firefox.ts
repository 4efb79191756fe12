/**
 * Gecko (Debian's `firefox-esr`), driven by puppeteer-core over WebDriver BiDi (no geckodriver).
 * BiDi has no colour-scheme emulation in Firefox, and a preference sets it for a whole browser: one
 * browser per scheme, started when a view first asks for it. BiDi has no phone emulation either:
 * a phone is its viewport's width.
 */
import puppeteer, { type Browser } from "puppeteer-core";
import type { Engine, Network, Scheme } from "./engine.js";
import { puppeteerView } from "./puppeteer-view.js";

export async function launchFirefox(network: Network): Promise<Engine> {
  const browsers = new Map<Scheme, Promise<Browser>>();
  const launch = (scheme: Scheme) =>
    puppeteer.launch({
      browser: "firefox",
      executablePath: process.env["FIREFOX"] ?? "/usr/bin/firefox-esr",
      headless: true,
      acceptInsecureCerts: true,
      extraPrefsFirefox: {
        // 0 dark, 1 light: what `prefers-color-scheme` answers in every page.
        "layout.css.prefers-color-scheme.content-override": scheme === "dark" ? 0 : 1,
        // Scrollbars over the page, as on a phone (a classic one would take 12 px of the 375).
        "ui.useOverlayScrollbars": 1,
        "network.proxy.type": 1,
        "network.proxy.http": "127.0.0.1",
        "network.proxy.http_port": network.proxyPort,
        "network.proxy.ssl": "127.0.0.1",
        "network.proxy.ssl_port": network.proxyPort,
      },
    });
  const browser = (scheme: Scheme) => {
    const started = browsers.get(scheme) ?? launch(scheme);
    browsers.set(scheme, started);
    return started;
  };
  await browser("light");
  return {
    name: "firefox",
    async open(viewing) {
      const page = await (await browser(viewing.scheme)).newPage();
      await page.setViewport({ width: viewing.width, height: viewing.height, deviceScaleFactor: 1 });
      await page.goto(network.blankUrl);
      return puppeteerView(page);
    },
    async close() {
      await Promise.all([...browsers.values()].map(async (started) => (await started).close()));
    },
  };
}
