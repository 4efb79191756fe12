/**
 * Node's host runs the html clean-up and minifier as WebAssembly (src/engine/wasm-markup-passes.ts),
 * and leaves to the JavaScript what the module cannot take: the html is the same either way.
 * native-functions.test.ts holds the two builds of the C to the JavaScript on generated text; here,
 * whole renders, through the paths that fall back.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { ONE_RENDER } from "../src/engine/caches.js";
import { createEngine } from "../src/engine/engine.js";
import type { EngineHost } from "../src/engine/host.js";
import { NODE_HOST } from "../src/engine/node-host.js";
import * as wasmPasses from "../src/engine/wasm-markup-passes.js";
import { removeHtmlWaste } from "../src/targets/html-waste.js";
import { minifyMarkup } from "../src/targets/minify.js";

const { removeHtmlWaste: _, minifyMarkup: __, ...javascriptPasses } = NODE_HOST;
const newsletter = listCases("render").find((c) => c.name === "realistic-newsletter")!;

function html(host: EngineHost, template: unknown): Promise<string> {
  return createEngine({ host, cache: ONE_RENDER })
    .render(template, { target: "html", dynamicData: newsletter.dynamicData })
    .then((r) => r.output);
}

/** The newsletter with `text` put into the first paragraph's content. */
function withText(text: string): unknown {
  return JSON.parse(JSON.stringify(newsletter.template).replace("<p>", `<p>${JSON.stringify(text).slice(1, -1)}`));
}

describe("the html passes as WebAssembly", () => {
  it("give the JavaScript's html where the module refuses the document: a lone surrogate, U+FFFD", async () => {
    for (const text of ["\uD800 lone", "\uFFFD replacement", "plain"]) {
      const template = withText(text);
      const ours = await html(NODE_HOST, template);
      expect(ours).toBe(await html(javascriptPasses, template));
      expect(ours).toContain(text);
    }
  });

  it("clean up a document given in pieces as the whole of it: chunks of every size, a character's surrogates in two pieces", () => {
    const paragraph = (n: number) => `<tr>\n  <td style="padding:0px" class="">\n    <p>Paragraph ${n}, an em dash \u2014 and 😀</p>\n  </td>\n</tr>\n`;
    // 100 rows: 200 runs beyond ASCII, each read apart; 400 rows: 800, more than the host reads apart, so read whole.
    for (const count of [100, 400]) {
      const rows = Array.from({ length: count }, (_, n) => paragraph(n));
      const table = `<table><tbody>\n${rows.join("")}</tbody></table>`;
      // Blank lines first, as many as put a high surrogate at the 8,192nd code unit, where the host's first chunk fills.
      const whole = `${"\n".repeat(8191 - table.lastIndexOf("\uD83D", 8191))}${table}`;
      expect(whole.charCodeAt(8191)).toBe(0xd83d);
      const expected = minifyMarkup(removeHtmlWaste(whole));
      // Cut after every code unit of 😀's pair at least once: the high surrogate ends a piece of its own.
      const cut = (text: string, every: number) => Array.from({ length: Math.ceil(text.length / every) }, (_, i) => text.slice(i * every, (i + 1) * every));
      for (const every of [1, 7, 61, 8191, 8192, 8193, whole.length]) {
        const pieces = cut(whole, every);
        expect(pieces.join("")).toBe(whole);
        expect(wasmPasses.removeHtmlWaste(pieces, true), `${count} rows in pieces of ${every}`).toBe(expected);
      }
      expect(expected).toContain("\u2014 and 😀");
    }
  });

  // --jitless: no WebAssembly at all; --no-enable-sse4-1: V8 as on an x86-64 processor without SSE4.1, where it compiles no SIMD.
  it.each([
    ["--jitless", "a Node without WebAssembly"],
    ["--no-enable-sse4-1", "a Node that cannot compile the module"],
  ])(
    "leave %s (%s) to the JavaScript, with the same html",
    (flag) => {
      const script = `
      import { render } from "${new URL("../src/index.ts", import.meta.url).href}";
      const { template, dynamicData } = JSON.parse(process.argv[1]);
      process.stdout.write((await render(template, { target: "html", dynamicData })).output);
    `;
      const run = spawnSync(process.execPath, [flag, "--import", "tsx", "--input-type=module", "-e", script, JSON.stringify(newsletter)], {
        encoding: "utf8",
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        maxBuffer: 1 << 26,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(readFileSync(join(newsletter.dir, "expected.html"), "utf8"));
    },
    60_000,
  );
});
