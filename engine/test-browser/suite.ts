/**
 * Every render fixture as a reader sees it, in one browser engine: the html output and the
 * react-email output, at 800 px (a desktop, in the light and in the dark colour scheme) and at
 * 375 px (a phone): its text and links, its columns (side by side, mirrored in a right-to-left
 * email; stacked in reading order on a phone), its direction and its text blocks' alignment. Each engine's test file runs these same checks with its own driver; the three
 * views of a page load side by side. Screenshots go to engine/build/browser/screenshots/<engine>
 * for review (they are not goldens).
 */
import { mkdirSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_DIR } from "../scripts/build-dir.js";
import { readExpected } from "../scripts/fixture-cases.js";
import { colourProblems, hasDarkColours, readScheme } from "./dark-mode.js";
import type { Engine, EngineName, Network, View, Viewing } from "./engines/engine.js";
import { compact, desktopContent, multiColumnRows, textBlockLooks } from "./expectations.js";
import { brokenImages, columnProblems, documentDirection, textBlockProblems, unmatchedMobileRules, visibleContent, widths } from "./page-checks.js";
import { type PageServer, startPageServer } from "./page-server.js";
import { readPage, selectedCases, TARGETS } from "./pages.js";

const PHONE = 375;
const DESKTOP = 800;
const VIEWINGS = {
  desktop: { width: DESKTOP, height: 900, phone: false, scheme: "light" },
  dark: { width: DESKTOP, height: 900, phone: false, scheme: "dark" },
  phone: { width: PHONE, height: 667, phone: true, scheme: "light" },
} as const satisfies Record<string, Viewing>;

export function describeEngine(name: EngineName, launch: (network: Network) => Promise<Engine>): void {
  const screenshots = `${BUILD_DIR}/screenshots/${name}`;
  let server: PageServer;
  let engine: Engine | undefined;
  let views: Record<keyof typeof VIEWINGS, View>;

  beforeAll(async () => {
    rmSync(screenshots, { recursive: true, force: true });
    mkdirSync(screenshots, { recursive: true });
    server = await startPageServer();
    engine = await launch({ proxyPort: server.port, blankUrl: server.blankUrl, frameUrl: server.frameUrl });
    const [desktop, dark, phone] = await Promise.all([engine.open(VIEWINGS.desktop), engine.open(VIEWINGS.dark), engine.open(VIEWINGS.phone)]);
    views = { desktop, dark, phone };
  });

  afterAll(async () => {
    await engine?.close();
    await server?.close();
  });

  const cases = selectedCases();
  /** Each fixture's links as its html target shows them, for its react-email target to match. */
  const htmlLinkLooks = new Map<string, string[]>();

  describe.each(cases.map((c) => [c.name, c] as const))("%s", (fixture, c) => {
    it.each(TARGETS.map((t) => [t] as const))("%s", async (target) => {
      const page = readPage(fixture, target);
      const expected = desktopContent(readExpected(c, "html"));
      const rows = multiColumnRows(c);
      const direction = (c.template as { canvas?: { direction?: string } }).canvas?.direction ?? "ltr";
      const shot = (viewing: string) => `${screenshots}/${fixture}.${target}.${viewing}.png`;
      const { desktop, dark, phone } = views;

      // The three views load and are read at the same time; the assertions follow, in order.
      const [desktopSeen, darkScheme, phoneSeen] = await Promise.all([
        (async () => {
          await desktop.show(page);
          const seen = {
            content: await visibleContent(desktop),
            broken: await brokenImages(desktop),
            scheme: await readScheme(desktop, c),
            widths: await widths(desktop),
            columns: await columnProblems(desktop, rows, DESKTOP),
            direction: await documentDirection(desktop),
            textBlocks: await textBlockProblems(desktop, textBlockLooks(c)),
          };
          await desktop.screenshot(shot(`${DESKTOP}`));
          return seen;
        })(),
        (async () => {
          await dark.show(page);
          const scheme = await readScheme(dark, c);
          if (hasDarkColours(c)) await dark.screenshot(shot(`${DESKTOP}.dark`));
          return scheme;
        })(),
        (async () => {
          await phone.show(page);
          const seen = {
            widths: await widths(phone),
            columns: await columnProblems(phone, rows, PHONE),
            unmatched: await unmatchedMobileRules(phone),
          };
          await phone.screenshot(shot(`${PHONE}`));
          return seen;
        })(),
      ]);

      const text = compact(desktopSeen.content.text);
      expect(
        expected.texts.filter((chunk) => !text.includes(chunk)),
        "text missing at 800 px",
      ).toEqual([]);
      expect(
        expected.links.filter((link) => !desktopSeen.content.links.includes(link)),
        "links missing at 800 px",
      ).toEqual([]);
      if (target === "html") htmlLinkLooks.set(fixture, desktopSeen.content.linkLooks);
      else expect(desktopSeen.content.linkLooks, "links drawn unlike the html target's (colour, underline)").toEqual(htmlLinkLooks.get(fixture));
      expect(desktopSeen.broken, "images that did not load").toEqual([]);
      for (const [check, problems] of colourProblems(fixture, desktopSeen.scheme, darkScheme)) expect(problems, check).toEqual([]);
      // `auto`: the body runs as its first letter says, which the text blocks' checks look at.
      const known = direction !== "auto";
      expect({ dir: desktopSeen.direction.dir, ...(known ? { body: desktopSeen.direction.body } : {}) }, "the document's direction").toEqual({
        dir: direction,
        ...(known ? { body: direction } : {}),
      });
      expect(desktopSeen.textBlocks, "text blocks' direction and alignment at 800 px").toEqual([]);
      expect(desktopSeen.columns, `columns at ${DESKTOP} px`).toEqual([]);

      // A viewport narrower than the viewing's would let a page too wide pass (a classic scrollbar takes 12 to 15 px of it).
      expect([desktopSeen.widths.viewport, phoneSeen.widths.viewport], "the viewports' widths, scrollbars left out").toEqual([DESKTOP, PHONE]);
      expect(phoneSeen.widths.page, `page width at ${PHONE} px`).toBeLessThanOrEqual(PHONE);
      expect(phoneSeen.columns).toEqual([]);
      expect(phoneSeen.unmatched, "mobile rules of blocks that select no element").toEqual([]);
    });
  });

  describe("the checks themselves", () => {
    it("answered every request locally", () => {
      expect(server.requests.filter((r) => r.image).length).toBeGreaterThan(0);
      expect(server.requests.filter((r) => !r.image && !/^https:\/\/fonts\.googleapis\.com\//.test(r.url))).toEqual([]);
    });

    it("requested Google Fonts stylesheets with their own parameters only (no HTML entity carried into a CSS @import)", () => {
      const fonts = server.requests.filter((r) => r.url.startsWith("https://fonts.googleapis.com/")).map((r) => r.url);
      if (cases.some((c) => c.name === "canvas-google-fonts")) expect(fonts.length).toBeGreaterThan(0);
      expect(fonts.flatMap((url) => [...new URL(url).searchParams.keys()].filter((key) => key !== "family" && key !== "display"))).toEqual([]);
    });
  });
}
