/**
 * Chromium's screenshots of every render fixture's html, at 800 px (a desktop, in the light and in
 * the dark colour scheme) and at 375 px (a phone), saved from one checkout and compared from
 * another: a change meant to alter no pixel (a smaller html) is held to that. `save DIR` writes the
 * PNGs and the html; `compare DIR` renders again and, for each fixture whose html changed, lists
 * each view whose pixels differ from the saved one (exit code 1 if any). BROWSER_FIXTURES (a
 * regular expression) selects fixtures, as in the browser suite.
 *
 *   git stash push -- src; npx tsx scripts/compare-screenshots.ts save /tmp/before; git stash pop
 *   npx tsx scripts/compare-screenshots.ts compare /tmp/before
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { render } from "../src/index.js";
import { launchChromium } from "../test-browser/engines/chromium.js";
import type { Viewing } from "../test-browser/engines/engine.js";
import { makeCertificate, startPageServer } from "../test-browser/page-server.js";
import { selectedCases } from "../test-browser/pages.js";

const VIEWINGS = {
  desktop: { width: 800, height: 900, phone: false, scheme: "light" },
  dark: { width: 800, height: 900, phone: false, scheme: "dark" },
  phone: { width: 375, height: 667, phone: true, scheme: "light" },
} as const satisfies Record<string, Viewing>;
const VIEW_COUNT = Object.keys(VIEWINGS).length;

/** A PNG's decoded pixel rows (filter bytes included: Chromium encodes equal images alike), with its size. */
function pixels(png: Buffer): string {
  const parts: Buffer[] = [];
  let size = "";
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString("ascii", at + 4, at + 8);
    if (type === "IHDR") size = `${png.readUInt32BE(at + 8)}x${png.readUInt32BE(at + 12)}`;
    if (type === "IDAT") parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return `${size}:${inflateSync(Buffer.concat(parts)).toString("base64")}`;
}

const [mode, dir] = process.argv.slice(2);
if ((mode !== "save" && mode !== "compare") || !dir) {
  console.error("usage: compare-screenshots.ts save|compare DIR");
  process.exit(2);
}
const current = mode === "save" ? dir : `${dir}.now`;
mkdirSync(current, { recursive: true });
makeCertificate();
const server = await startPageServer();
const network = { proxyPort: server.port, blankUrl: server.blankUrl, frameUrl: server.frameUrl };
const differing: string[] = [];
let changed = 0;
/**
 * Each fixture's views in a browser of their own: Chromium may shade an antialiased edge one level
 * apart depending on the pages a view showed before, so a view's history is the same in both runs.
 */
async function screenshots(html: string, fixture: string): Promise<string[]> {
  const engine = await launchChromium(network);
  try {
    return await Promise.all(
      Object.entries(VIEWINGS).map(async ([name, viewing]) => {
        const view = await engine.open(viewing);
        const file = `${fixture}.${name}.png`;
        await view.show(html);
        await view.screenshot(`${current}/${file}`);
        return file;
      }),
    );
  } finally {
    await engine.close();
  }
}
try {
  const cases = selectedCases();
  for (const fixture of cases) {
    const { output } = await render(fixture.template, { target: "html", dynamicData: fixture.dynamicData, minify: fixture.minify, strict: fixture.strict });
    writeFileSync(`${current}/${fixture.name}.html`, output);
    if (mode === "compare" && existsSync(`${dir}/${fixture.name}.html`) && readFileSync(`${dir}/${fixture.name}.html`, "utf8") === output) continue;
    changed++;
    for (const file of await screenshots(output, fixture.name))
      if (mode === "compare" && (!existsSync(`${dir}/${file}`) || pixels(readFileSync(`${dir}/${file}`)) !== pixels(readFileSync(`${current}/${file}`))))
        differing.push(file);
  }
  console.log(
    mode === "save"
      ? `saved ${cases.length * VIEW_COUNT} screenshots in ${dir}`
      : `${changed} fixtures' html changed, their ${changed * VIEW_COUNT} views compared; differing: ${differing.length === 0 ? "none" : differing.join(", ")}`,
  );
} finally {
  await server.close();
}
process.exit(differing.length === 0 ? 0 : 1);
