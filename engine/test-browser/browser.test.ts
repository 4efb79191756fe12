/**
 * Every render fixture as a reader sees it, in headless Chromium: the html output and the
 * react-email output rendered with `@react-email/render`, at 800 px (desktop) and 375 px (a phone,
 * with mobile emulation). Images are answered locally with generated PNGs; nothing reaches the
 * network. Screenshots go to engine/build/browser/screenshots for review (they are not goldens).
 */
import { mkdirSync } from "node:fs";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_DIR } from "../scripts/build-dir.js";
import { listCases } from "../scripts/fixture-cases.js";
import { fixtureDocuments } from "../scripts/fixture-documents.js";
import { darkModeProblems, hasDarkColours, schemeDifferences } from "./dark-mode.js";
import { compact, desktopContent, multiColumnRows, type RowColumns } from "./expectations.js";
import { solidPng } from "./png.js";

const PHONE = 375;
const DESKTOP = 800;
const IMAGE = { width: 640, height: 360 };
const IMAGE_PNG = solidPng(IMAGE.width, IMAGE.height);
const SCREENSHOTS = `${BUILD_DIR}/screenshots`;
const only = process.env["BROWSER_FIXTURES"] ? new RegExp(process.env["BROWSER_FIXTURES"]) : undefined;

let browser: Browser;
/** One page, emulating the desktop or the phone in turn (a background tab would not paint). */
let page: Page;
/** Every request a page made that was not an image (fonts, styles): answered empty, never fetched. */
const otherRequests: string[] = [];
let imageRequests = 0;

async function emulate(width: number, mobile: boolean): Promise<void> {
  await page.emulate({
    viewport: { width, height: mobile ? 667 : 900, deviceScaleFactor: 1, isMobile: mobile, hasTouch: mobile },
    userAgent: mobile
      ? "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
      : "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
  });
}

async function openPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    const url = request.url();
    if (url.startsWith("data:") || url === "about:blank") return void request.continue();
    if (request.resourceType() === "image") {
      imageRequests++;
      return void request.respond({ status: 200, contentType: "image/png", body: IMAGE_PNG });
    }
    otherRequests.push(url);
    return void request.respond({ status: 200, contentType: request.resourceType() === "stylesheet" ? "text/css" : "text/plain", body: "" });
  });
  return page;
}

async function load(page: Page, html: string): Promise<void> {
  await page.setContent(html, { waitUntil: "load" });
}

/**
 * The page's visible text (compacted like the expectations), the targets of its visible links, and
 * how the text of each visible link is drawn (target, colour, underline), to compare the targets by.
 */
function visibleContent(page: Page): Promise<{ text: string; links: string[]; linkLooks: string[] }> {
  return page.evaluate(() => {
    const shown = (element: Element | null) =>
      element?.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && element.getClientRects().length > 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let text = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (shown(node.parentElement)) text += node.textContent ?? "";
    const visibleLinks = [...document.querySelectorAll("a[href]")].filter(shown);
    const links = visibleLinks.map((a) => a.getAttribute("href") ?? "");
    // Each visible text inside a link, in the colour it is drawn in and whether the link's (or an inner element's) underline runs under it.
    const linkLooks = visibleLinks.flatMap((a) => {
      const looks: string[] = [];
      const texts = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
      for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        const parent = node.parentElement;
        const text = (node.textContent ?? "").replace(/\s+/g, " ").trim();
        if (!parent || text === "" || !shown(parent)) continue;
        let underlined = false;
        for (let e: Element | null = parent; e && (e === a || a.contains(e)); e = e.parentElement)
          underlined ||= getComputedStyle(e).textDecorationLine.includes("underline");
        looks.push(`${a.getAttribute("href")} "${text}": ${getComputedStyle(parent).color}${underlined ? ", underlined" : ""}`);
      }
      return looks;
    });
    return { text, links, linkLooks };
  });
}

/**
 * Rules of the phone stylesheet aimed at a block (its `mr-b<n>` class) that select nothing in the
 * page: an override written for markup the target does not have (each target draws some blocks with
 * other elements) never reaches a phone.
 */
function unmatchedMobileRules(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const unmatched: string[] = [];
    const visit = (rules: CSSRuleList, phone: boolean) => {
      for (const rule of rules) {
        if (rule instanceof CSSMediaRule) visit(rule.cssRules, phone || rule.conditionText.includes("max-width"));
        else if (phone && rule instanceof CSSStyleRule && /\.mr-b\d/.test(rule.selectorText) && document.querySelector(rule.selectorText) === null)
          unmatched.push(rule.cssText);
      }
    };
    // The document's own stylesheets (a web font's, from another origin, cannot be read and has no block rules).
    for (const sheet of document.styleSheets) if (sheet.href === null) visit(sheet.cssRules, false);
    return unmatched;
  });
}

/** Each fixture's links as its html target shows them, for its react-email target to match. */
const htmlLinkLooks = new Map<string, string[]>();

/** Where each marker text is drawn, found in document order (a later column's text comes after an earlier one's). */
function markerBoxes(
  page: Page,
  markers: string[],
  after: number,
): Promise<{ boxes: Array<{ left: number; right: number; top: number; bottom: number } | null>; end: number }> {
  return page.evaluate(
    (markers, after) => {
      const squeeze = (s: string) => s.replace(/[\u034f\u200a-\u200f\u2028\u2029\ufeff\u00ad]/g, "").replace(/\s+/g, "");
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const nodes: Text[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (parent?.checkVisibility() && parent.getClientRects().length > 0) nodes.push(node as Text);
      }
      let index = after;
      const boxes = markers.map((marker) => {
        const prefix = marker.slice(0, 12);
        for (let i = index; i < nodes.length; i++) {
          if (!squeeze(nodes[i]!.data).includes(prefix)) continue;
          index = i + 1;
          const range = document.createRange();
          range.selectNodeContents(nodes[i]!);
          const r = range.getBoundingClientRect();
          return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        }
        return null;
      });
      return { boxes, end: index };
    },
    markers,
    after,
  );
}

async function checkColumns(page: Page, rows: RowColumns[]): Promise<string[]> {
  const problems: string[] = [];
  let after = 0;
  for (const row of rows) {
    const { boxes, end } = await markerBoxes(page, row.markers, after);
    after = end;
    for (let i = 1; i < boxes.length; i++) {
      const a = boxes[i - 1];
      const b = boxes[i];
      if (!a || !b) {
        problems.push(`${row.row}: column text "${row.markers[a ? i : i - 1]}" not found`);
        continue;
      }
      const stacked = b.top >= a.bottom - 1;
      const sideBySide = b.left >= a.right - 1 && b.top < a.bottom;
      if (row.mobileStack && !stacked) problems.push(`${row.row}: columns ${i} and ${i + 1} side by side at ${PHONE} px, expected stacked`);
      if (!row.mobileStack && !sideBySide)
        problems.push(`${row.row}: columns ${i} and ${i + 1} stacked at ${PHONE} px, expected side by side (mobileStack false)`);
    }
  }
  return problems;
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await puppeteer.launch({
    executablePath: process.env["CHROMIUM"] ?? "/usr/bin/chromium",
    headless: true,
    userDataDir: `${BUILD_DIR}/profile-${process.pid}`,
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
    ],
  });
  page = await openPage();
});

afterAll(async () => {
  await browser?.close();
});

const cases = listCases("render").filter((c) => !only || only.test(c.name));
const documents = fixtureDocuments((name) => cases.some((c) => c.name === name));

describe.each(cases.map((c) => [c.name] as const))("%s", (name) => {
  it.each([["html"], ["react-email"]] as const)("%s", async (target) => {
    const pages = (await documents).find((d) => d.fixture.name === name)!;
    const html = target === "html" ? pages.html : pages.reactHtml;
    const expected = desktopContent(pages.html);

    await emulate(DESKTOP, false);
    await load(page, html);
    await page.screenshot({ path: `${SCREENSHOTS}/${name}.${target}.${DESKTOP}.png`, fullPage: true });
    const seen = await visibleContent(page);
    const text = compact(seen.text);
    expect(
      expected.texts.filter((chunk) => !text.includes(chunk)),
      "text missing at 800 px",
    ).toEqual([]);
    expect(
      expected.links.filter((link) => !seen.links.includes(link)),
      "links missing at 800 px",
    ).toEqual([]);
    if (target === "html") htmlLinkLooks.set(name, seen.linkLooks);
    else expect(seen.linkLooks, "links drawn unlike the html target's (colour, underline)").toEqual(htmlLinkLooks.get(name));
    const broken = await page.evaluate(() =>
      [...document.images].filter((img) => img.getAttribute("src") && (!img.complete || img.naturalWidth === 0)).map((img) => img.src),
    );
    expect(broken, "images that did not load").toEqual([]);
    if (hasDarkColours(pages.fixture)) {
      expect(await darkModeProblems(page, name, "light"), "light scheme").toEqual([]);
      expect(await darkModeProblems(page, name, "dark"), "dark scheme").toEqual([]);
    } else expect(await schemeDifferences(page), "colours that change in the dark scheme (the template has no dark colours)").toEqual([]);

    await emulate(PHONE, true);
    await load(page, html);
    await page.screenshot({ path: `${SCREENSHOTS}/${name}.${target}.${PHONE}.png`, fullPage: true });
    const width = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
    expect(width, `page width at ${PHONE} px`).toBeLessThanOrEqual(PHONE);
    expect(await checkColumns(page, multiColumnRows(pages.fixture))).toEqual([]);
    expect(await unmatchedMobileRules(page), "mobile rules of blocks that select no element").toEqual([]);
  });
});

describe("the checks themselves", () => {
  it("answered every request locally", () => {
    expect(imageRequests).toBeGreaterThan(0);
    expect(otherRequests.filter((url) => !/^https:\/\/fonts\.googleapis\.com\//.test(url))).toEqual([]);
  });

  it("requested Google Fonts stylesheets with their own parameters only (no HTML entity carried into a CSS @import)", () => {
    const fonts = otherRequests.filter((url) => url.startsWith("https://fonts.googleapis.com/"));
    if (cases.some((c) => c.name === "canvas-google-fonts")) expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.flatMap((url) => [...new URL(url).searchParams.keys()].filter((key) => key !== "family" && key !== "display"))).toEqual([]);
  });
});
