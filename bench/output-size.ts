/**
 * Output size: html bytes and gzip bytes of the realistic newsletter, the receipt and the largest
 * fixture (Gmail clips a message at 102 KB of html), rendered by the engine library; and what
 * canvas-level dark colours add to the newsletter; and the sum over every fixture.
 */
import { gzipSync } from "node:zlib";
import { listCases } from "../engine/scripts/fixture-cases.js";
import { render } from "../engine/src/index.js";

const GMAIL_CLIP = 102 * 1024;
const DARK_CANVAS = { bodyBackgroundColor: "#020617", backgroundColor: "#0f172a", color: "#e2e8f0", linkColor: "#7dd3fc" };
const newsletter = listCases("render").find((fixture) => fixture.name === "realistic-newsletter")!;
const withDarkCanvas = {
  ...newsletter,
  name: "newsletter + dark canvas",
  template: { ...(newsletter.template as object), canvas: { ...(newsletter.template as { canvas: object }).canvas, dark: DARK_CANVAS } },
};
const rendered = await Promise.all(
  [...listCases("render"), withDarkCanvas].map(async (fixture) => {
    const { output } = await render(fixture.template, { target: "html", dynamicData: fixture.dynamicData, minify: fixture.minify, strict: fixture.strict });
    return { name: fixture.name, bytes: Buffer.byteLength(output), gzip: gzipSync(output).length };
  }),
);
const largest = rendered.filter((r) => r.name !== withDarkCanvas.name).reduce((a, b) => (b.bytes > a.bytes ? b : a));
const shown = ["realistic-newsletter", withDarkCanvas.name, "realistic-receipt", largest.name].filter((name, i, all) => all.indexOf(name) === i);
console.log("html output size (gzip level 6)");
for (const name of shown) {
  const r = rendered.find((x) => x.name === name)!;
  console.log(
    `  ${name.padEnd(24)} ${String(r.bytes).padStart(7)} B html ${String(r.gzip).padStart(6)} B gzip  ${((r.bytes / GMAIL_CLIP) * 100).toFixed(0)}% of Gmail's clip${name === largest.name ? "  (largest fixture)" : ""}`,
  );
}
const fixtures = rendered.filter((r) => r.name !== withDarkCanvas.name);
const sum = (key: "bytes" | "gzip") => fixtures.reduce((total, r) => total + r[key], 0);
console.log(`  ${`all ${fixtures.length} fixtures (sum)`.padEnd(24)} ${String(sum("bytes")).padStart(7)} B html ${String(sum("gzip")).padStart(6)} B gzip`);
