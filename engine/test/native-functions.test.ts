/**
 * The release engine's native functions that follow a JavaScript definition
 * (engine/runtimes/quickjs/native/), against that definition on generated text: what a template
 * brings to them and what it never does. They run in the test executable the release build makes
 * beside the engine for this machine, linked as the engine links them (runtimes/quickjs/native-check.ts);
 * the html clean-up and the minifier also as the WebAssembly Node's host runs (runtimes/wasm/).
 * A function may leave a text to the JavaScript (undefined): only where its C says it does.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { NODE_HOST } from "../src/engine/node-host.js";
import * as wasmPasses from "../src/engine/wasm-markup-passes.js";
import { render } from "../src/index.js";
import { minifyInner } from "../src/mjml-to-html/document.js";
import { ENDING_TAG_LIST } from "../src/mjml-to-html/index.js";
import { parseMjml } from "../src/mjml-to-html/parse.js";
import { removeHtmlWaste } from "../src/targets/html-waste.js";
import { minifyMarkup } from "../src/targets/minify.js";
import { ensureBinary } from "./support/engine-binary.js";
import { CONTEXT, generateTemplates, MERGE_TAGS } from "./support/generated-templates.js";
import { HTML_WASTE_EDGES, HTML_WASTE_TOKENS } from "./support/html-waste-edges.js";

const NATIVE_CHECK = fileURLToPath(new URL("../dist/.build-quickjs/native-check", import.meta.url));

/** `name` of each text (and `flag`) in the native functions' executable: its result, or null where it leaves the text to JavaScript. */
function native<T = string>(name: string, texts: readonly string[], flag: boolean | string = false): (T | null)[] {
  const run = spawnSync(NATIVE_CHECK, { input: texts.map((text) => `${JSON.stringify([name, text, flag])}\n`).join(""), encoding: "utf8", maxBuffer: 1 << 28 });
  expect(run.status, run.stderr).toBe(0);
  const lines = run.stdout.trimEnd().split("\n");
  expect(lines).toHaveLength(texts.length);
  return lines.map((line) => JSON.parse(line) as T | null);
}

type MarkupPass = "minifyMarkup" | "removeHtmlWaste";

/**
 * Each build of the html clean-up and the minifier: `name` of each text (and `flag`), null where it
 * leaves the text to JavaScript, and what it leaves besides what the C does (the WebAssembly is
 * given U+FFFD for a lone surrogate, and refuses it).
 */
const MARKUP_PASSES: Readonly<Record<string, { run: (name: MarkupPass, texts: readonly string[], flag?: boolean) => (string | null)[]; alsoLeaves: RegExp }>> =
  {
    "in the release engine": { run: (name, texts, flag = false) => native(name, texts, flag), alsoLeaves: /$^/ },
    "as WebAssembly in Node's host": {
      run: (name, texts, flag = false) =>
        texts.map((text) => (name === "minifyMarkup" ? wasmPasses.minifyMarkup(text) : wasmPasses.removeHtmlWaste([text], flag)) ?? null),
      alsoLeaves: /\ufffd/,
    },
  };

/** JavaScript's white space (`\s`), and characters beside it that are not. */
const SPACE = [
  "\n",
  "\r\n",
  "\r",
  " ",
  "  ",
  "\t",
  "\v",
  "\f",
  "\u00a0",
  "\u1680",
  "\u2000",
  "\u200a",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
  "\ufeff",
];
const NOT_SPACE = ["\u0085", "\u180e", "\u200b", "\u017f", "x", "é", "日", "😀", "\u0000"];
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Texts joined from `pieces`, white space most often. */
function texts(pieces: readonly string[], seed: number, count: number): string[] {
  const piece = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SPACE) }, { weight: 2, arbitrary: fc.constantFrom(...pieces, ...NOT_SPACE) });
  return fc.sample(
    fc.array(piece, { maxLength: 40 }).map((parts) => parts.join("")),
    { seed, numRuns: count },
  );
}

describe("native functions against their JavaScript definitions", () => {
  beforeAll(ensureBinary, 600_000);

  it("sha256 and crc32 are Node's, of the text's UTF-8", () => {
    const inputs = [...texts(["<td>", "é", "日", "😀", "a".repeat(63), "b".repeat(64), "c".repeat(65)], 29, 500), "", "a", "x".repeat(100_000)];
    const hashes = native("sha256", inputs);
    const crcs = native("crc32", inputs);
    for (const [i, input] of inputs.entries()) {
      expect(hashes[i], JSON.stringify(input)).toBe(NODE_HOST.sha256!(input));
      expect(crcs[i], JSON.stringify(input)).toBe(NODE_HOST.crc32!(input));
    }
    // zlib's check value: the CRC-32 of "123456789".
    expect(native("crc32", ["123456789"])).toEqual(["cbf43926"]);
  });

  it("jsonStringUtf8 is the UTF-8 of JSON.stringify's quoting", () => {
    const escapes = ['"', "\\", "\u0000", "\u001f", "\b", "\t", "\n", "\f", "\r", " ", "\u007f", "é", "\u00ed", "\u2028", "😀", "\uD800", "\uDC00"];
    const runs = ["a".repeat(7), "b".repeat(8), "c".repeat(9), "d".repeat(16)];
    const inputs = [...texts([...escapes, ...runs], 59, 3000), "", "x".repeat(100_000), `${"y".repeat(8)}"${"z".repeat(8)}`];
    const results = native("jsonStringUtf8", inputs);
    for (const [i, input] of inputs.entries()) {
      expect(results[i], JSON.stringify(input)).toBe(Buffer.from(JSON.stringify(input).slice(1, -1)).toString("hex"));
    }
  });

  it("minifyConditionalInner is mjml's minifying of a conditional comment's inner markup", () => {
    const inputs = [...texts([">", "<", "<td>", "</td>", "<br/>", "\uD800"], 41, 4000), "", " ", "\n", "> <", "  \n  "];
    const results = native("minifyConditionalInner", inputs);
    for (const [i, input] of inputs.entries()) {
      const result = results[i];
      if (result === null) expect(LONE_SURROGATE.test(input), JSON.stringify(input)).toBe(true);
      else expect(result, JSON.stringify(input)).toBe(minifyInner(input));
    }
    // The texts reach what the C takes: most are minified there, not left to JavaScript.
    expect(results.filter((r) => r !== null).length).toBeGreaterThan(inputs.length / 2);
  });

  it.each(Object.entries(MARKUP_PASSES))("minifyMarkup is the html and mjml targets' minifier, %s", (_, { run, alsoLeaves }) => {
    const tags = [
      "<p>",
      "</p>",
      "<br>",
      "<pre>",
      "</pre>",
      "<style>",
      "</style>",
      "<textarea>",
      "</textarea>",
      "<!--",
      "-->",
      "<",
      ">",
      "\ue002",
      "\uD800",
      "\ufffd",
    ];
    const inputs = texts(tags, 43, 3000);
    const results = run("minifyMarkup", inputs);
    for (const [i, input] of inputs.entries()) {
      const result = results[i];
      if (result === null) {
        const left = input.includes("\u0000") || input.includes("\ue002") || LONE_SURROGATE.test(input) || alsoLeaves.test(input);
        expect(left, JSON.stringify(input)).toBe(true);
      } else expect(result, JSON.stringify(input)).toBe(minifyMarkup(input));
    }
    expect(results.filter((r) => r !== null).length).toBeGreaterThan(inputs.length / 4);
  });

  it.each(Object.entries(MARKUP_PASSES))("removeHtmlWaste is the html target's clean-up, then its minifier when asked, %s", (_, { run }) => {
    const edges = fc.sample(
      fc
        .array(fc.constantFrom(...HTML_WASTE_EDGES), { minLength: 1, maxLength: 5 })
        .chain((parts) =>
          fc
            .array(fc.constantFrom(...SPACE, "é", "😀"), { minLength: parts.length, maxLength: parts.length })
            .map((glue) => parts.map((part, i) => part + glue[i]).join("")),
        ),
      { seed: 47, numRuns: 500 },
    );
    const inputs = [...HTML_WASTE_EDGES, ...edges, ...texts([...HTML_WASTE_TOKENS, "\uD800", "\ue002", "\ufffd"], 53, 3000)];
    for (const minify of [false, true]) {
      const results = run("removeHtmlWaste", inputs, minify);
      for (const [i, input] of inputs.entries()) {
        const result = results[i];
        // Left to JavaScript: U+0000, a lone surrogate, the minifier's own refusals, names not ASCII in a heading's styles.
        if (result === null) expect(/[^\x20-\x7e\t\n\r]/.test(input), JSON.stringify(input)).toBe(true);
        else expect(result, JSON.stringify(input)).toBe(minify ? minifyMarkup(removeHtmlWaste(input)) : removeHtmlWaste(input));
      }
      expect(results.filter((r) => r !== null).length).toBeGreaterThan(inputs.length / 4);
    }
  });

  describe("parseMjml reads the MJML the engine writes as the JavaScript does", () => {
    const endingTags = new Set(ENDING_TAG_LIST.split(" ").filter(Boolean));
    /** The JavaScript's tree as JSON (key order included), or null where it refuses the MJML. */
    const javascript = (mjml: string): string | null => {
      try {
        return JSON.stringify(parseMjml(mjml, endingTags));
      } catch {
        return null;
      }
    };

    it("gives its tree for every document the engine writes", async () => {
      const documents: string[] = [];
      for (const fixture of listCases("render")) {
        for (const minify of [false, true]) {
          documents.push((await render(fixture.template, { target: "mjml", dynamicData: fixture.dynamicData, minify })).output);
        }
      }
      for (const generated of generateTemplates(80, 61)) {
        documents.push((await render(generated.template, { target: "mjml", dynamicData: { merge_tags: MERGE_TAGS, context: CONTEXT }, minify: false })).output);
      }
      const trees = native<unknown>("parseMjml", documents, ENDING_TAG_LIST);
      for (const [i, mjml] of documents.entries()) {
        expect(trees[i], mjml.slice(0, 200)).not.toBeNull();
        expect(JSON.stringify(trees[i])).toBe(javascript(mjml));
      }
    });

    it("gives the same tree, or leaves the MJML to the JavaScript, whatever the markup", () => {
      const piece = fc.constantFrom(
        ...["<mjml>", "</mjml>", "<mj-body>", "</mj-body>", "<mj-section", "</mj-section>", "<mj-text", "</mj-text>", "</mj-textx>", "<mj-raw>", "</mj-raw>"],
        ...[">", "/>", " />", "\t/>", "\u00a0>", " >", "<", "</", "<!-- c -->", "<!--", "-->", "<p>x</p>"],
        ...[' a="x"', '  a="x"', ' a = "x"', " a", ' a="true"', ' b="false"', ' a="1" a="2"', ' __proto__="x"', ' 0="z"', ' é="x"', ' a="x>y"', ' a="<!--"'],
        ...["text", " ", "\n", "\u2028", "é", "😀", "\uD800"],
      );
      const documents = fc.sample(
        fc.array(piece, { maxLength: 30 }).map((pieces) => `<mjml><mj-body>${pieces.join("")}</mj-body></mjml>`),
        { seed: 67, numRuns: 4000 },
      );
      const trees = native<unknown>("parseMjml", documents, ENDING_TAG_LIST);
      let read = 0;
      for (const [i, mjml] of documents.entries()) {
        if (trees[i] === null) continue;
        read++;
        expect(JSON.stringify(trees[i]), JSON.stringify(mjml)).toBe(javascript(mjml));
      }
      // The documents reach what the C reads, not only what it leaves.
      expect(read).toBeGreaterThan(documents.length / 10);
    });
  });
});
