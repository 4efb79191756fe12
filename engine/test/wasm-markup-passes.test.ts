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
import { removeHtmlWaste as wasmRemoveHtmlWaste } from "../src/engine/wasm-markup-passes.js";
import { compileMjmlToHtmlPieces } from "../src/mjml-to-html/index.js";
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

  it("take the document in the compile's pieces, written in parts, with the html of the joined document", async () => {
    const mjml = (await createEngine({ host: NODE_HOST, cache: ONE_RENDER }).render(newsletter.template, { target: "mjml", minify: false })).output;
    const pieces = compileMjmlToHtmlPieces(mjml);
    const document = pieces.join("");
    // several parts, and a piece longer than a part
    expect(document.length).toBeGreaterThan(64 * 1024);
    const cuts = [pieces, [document], [document.slice(0, 40_000), document.slice(40_000)], pieces.flatMap((piece) => [...piece])];
    for (const minify of [true, false]) {
      const expected = minify ? minifyMarkup(removeHtmlWaste(document)) : removeHtmlWaste(document);
      for (const cut of cuts) expect(wasmRemoveHtmlWaste(cut, minify)).toBe(expected);
    }
  });

  it("leave to the JavaScript a surrogate pair split where a part ends, not one split between pieces of a part", () => {
    const long = `<p>${"x".repeat(16 * 1024)}`;
    expect(wasmRemoveHtmlWaste([`${long}\uD83D`, "\uDE00</p>"], true)).toBeUndefined();
    expect(wasmRemoveHtmlWaste([`${long}\uD83D\uDE00`, "</p>"], true)).toBe(`${long}\uD83D\uDE00</p>`);
    expect(wasmRemoveHtmlWaste(["<p>\uD83D", "\uDE00</p>"], true)).toBe("<p>\uD83D\uDE00</p>");
  });

  it("are handed the compile's pieces: the html target never builds its whole document before the clean-up", async () => {
    const handed: (readonly string[])[] = [];
    const host: EngineHost = {
      ...NODE_HOST,
      removeHtmlWaste: (document, minify) => {
        handed.push(document);
        return NODE_HOST.removeHtmlWaste?.(document, minify);
      },
    };
    expect(await html(host, newsletter.template)).toBe(readFileSync(join(newsletter.dir, "expected.html"), "utf8"));
    const [document] = handed;
    expect(handed).toHaveLength(1);
    expect(document!.join("").length).toBeGreaterThan(64 * 1024);
    expect(Math.max(...document!.map((piece) => piece.length))).toBeLessThan(16 * 1024);
  });
});
