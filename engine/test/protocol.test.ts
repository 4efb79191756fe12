/**
 * The protocol layer in-process, over the real engine library: request decoding and validation,
 * envelopes, template_ref, the one-shot and --serve loops over in-memory streams. The binary itself
 * is exercised in protocol-binary.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { RenderError } from "../src/base/diagnostics.js";
import type { EnginePort } from "../src/executable/engine-port.js";
import { createHandler, type Handled } from "../src/executable/handler.js";
import { LineSplitter } from "../src/executable/line-splitter.js";
import { runOneShot, runServe } from "../src/executable/loops.js";
import { Output } from "../src/executable/output.js";
import { TemplateStore } from "../src/executable/template-store.js";
import { warmupTemplate } from "../src/executable/warmup.js";
import { libraryEngine } from "./support/engine-port.js";

const WARMUP = warmupTemplate();

import { ENGINE_VERSION, render, validateTemplate } from "../src/index.js";
import { MAX_JSON_DEPTH, MAX_REQUEST_BYTES, PROTOCOL_VERSION } from "../src/protocol/constants.js";
import { maxNesting } from "../src/protocol/decode.js";
import { ERROR_CODES, EXIT } from "../src/protocol/errors.js";
import { PROTOCOL_SCHEMA_DIR, protocolSchemaFiles } from "../src/protocol/json-schema.js";
import { type ErrorResponse, type OkLayoutResponse, type OkResponse, type Response, responseSchema } from "../src/protocol/response-schema.js";

const TEMPLATE = WARMUP;
const DATA = { merge_tags: { text: { first_name: "Ada <&>" } }, context: { plan: "pro" } };

const bytes = (value: unknown): Buffer => Buffer.from(typeof value === "string" ? value : JSON.stringify(value));

function handlerWith(engine: EnginePort = libraryEngine, reportBug?: (e: unknown) => void) {
  return createHandler({ engine, store: new TemplateStore(), ...(reportBug ? { reportBug } : {}) });
}

/** Every response must satisfy the published response schema, whatever it says. */
function checked(handled: Handled): Handled {
  expect(responseSchema.safeParse(handled.response).success).toBe(true);
  expect(handled.response.engine_version).toBe(ENGINE_VERSION);
  expect(handled.response.protocol_version).toBe(PROTOCOL_VERSION);
  return handled;
}

function asError(handled: Handled): ErrorResponse["error"] {
  expect(handled.response.ok).toBe(false);
  return (handled.response as ErrorResponse).error;
}

describe("wire bytes", () => {
  const fixtures = JSON.parse(readFileSync(fileURLToPath(new URL("../../fixtures/render/escape-newline-unicode/case.json", import.meta.url)), "utf8")) as {
    template: unknown;
    dynamic_data: unknown;
  };
  it.each([
    ["no id", {}],
    ["a string id", { id: 'r-"1"' }],
    ["a number id", { id: 7 }],
  ])("the pre-encoded line equals JSON.stringify of the envelope (%s)", async (_label, extra) => {
    for (const target of ["html", "mjml", "react-email"] as const) {
      const handled = checked(await handlerWith()(bytes({ ...extra, template: fixtures.template, target, dynamic_data: fixtures.dynamic_data })));
      expect(handled.wire).toBeDefined();
      expect(Buffer.concat(handled.wire ?? []).toString("utf8")).toBe(JSON.stringify(handled.response));
    }
  });
});

describe("render requests", () => {
  it("returns the library's own output and warnings, with versions and the echoed id", async () => {
    const handled = checked(await handlerWith()(bytes({ id: "r-1", template: TEMPLATE, target: "html", dynamic_data: DATA })));
    const direct = await render(TEMPLATE, { target: "html", dynamicData: DATA });
    expect(handled.exitCode).toBe(EXIT.OK);
    const response = handled.response as OkResponse;
    expect(response).toMatchObject({ id: "r-1", ok: true, target: "html", template_id: direct.templateId });
    expect(response.output).toBe(direct.output);
    expect(response.warnings).toEqual(direct.warnings.map((w) => ({ code: w.code, message: w.message, path: [...w.path] })));
  });

  it("passes options through: minify false changes the output exactly as the library does", async () => {
    const handled = checked(await handlerWith()(bytes({ template: TEMPLATE, target: "mjml", options: { minify: false } })));
    const direct = await render(TEMPLATE, { target: "mjml", minify: false });
    expect((handled.response as OkResponse).output).toBe(direct.output);
    expect("id" in handled.response).toBe(false);
  });

  it("options.component_props: the library's component; a recipient's data or another target is a BAD_REQUEST naming the key", async () => {
    const handled = checked(await handlerWith()(bytes({ template: TEMPLATE, target: "react-email", options: { component_props: true } })));
    expect((handled.response as OkResponse).output).toBe((await render(TEMPLATE, { target: "react-email", componentProps: true })).output);
    for (const [request, loc] of [
      [{ target: "html" }, ["target"]],
      [{ target: "react-email", dynamic_data: DATA }, ["dynamic_data"]],
      [{ target: "react-email", options: { component_props: true, plain_text: true } }, ["options", "plain_text"]],
    ] as const) {
      const refused = checked(await handlerWith()(bytes({ template: TEMPLATE, options: { component_props: true }, ...request })));
      expect(refused.exitCode).toBe(EXIT.BAD_REQUEST);
      expect(asError(refused)).toMatchObject({ code: "BAD_REQUEST", issues: [{ loc, type: "component_props_conflict" }] });
    }
  });

  it("reports an invalid template as RENDER_ERROR with the library's issues, exit 1", async () => {
    const handled = checked(await handlerWith()(bytes({ id: 3, template: { rows: "no" }, target: "html" })));
    const thrown = await render({ rows: "no" }, { target: "html" }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RenderError);
    expect(handled.exitCode).toBe(EXIT.RENDER_FAILED);
    expect(handled.response.id).toBe(3);
    const error = asError(handled);
    expect(error.code).toBe("RENDER_ERROR");
    expect(error.issues).toEqual((thrown as RenderError).issues.map((i) => ({ loc: [...i.loc], msg: i.msg, type: i.type })));
    expect(error.issues.length).toBeGreaterThan(0);
  });

  it("leaves judging a template that is not an object to the engine: RENDER_ERROR, as the library fails", async () => {
    for (const template of ["x", [1], null, 3]) {
      const handled = checked(await handlerWith()(bytes({ template, target: "html" })));
      const thrown = (await render(template, { target: "html" }).catch((e: unknown) => e)) as RenderError;
      expect(asError(handled)).toEqual({ code: "RENDER_ERROR", message: thrown.message, issues: thrown.issues });
      expect(handled.exitCode).toBe(EXIT.RENDER_FAILED);
    }
  });

  it("turns an engine bug into INTERNAL_ERROR without a stack in the envelope, and reports the stack", async () => {
    const bug = new TypeError("boom");
    const broken: EnginePort = { ...libraryEngine, render: () => Promise.reject(bug) };
    const reportBug = vi.fn();
    const handled = checked(await handlerWith(broken, reportBug)(bytes({ template: TEMPLATE, target: "html" })));
    expect(asError(handled).code).toBe("INTERNAL_ERROR");
    expect(asError(handled).message).toContain("TypeError: boom");
    expect(JSON.stringify(handled.response)).not.toMatch(/\n\s+at /);
    expect(handled.exitCode).toBe(EXIT.RENDER_FAILED);
    expect(reportBug).toHaveBeenCalledWith(bug);
  });
});

describe("options.checks", () => {
  const mistakes = listCases("checks");
  const withTypo = mistakes.find((c) => c.name === "unknown-props-on-blocks")!.template;

  it("adds the library's findings for the template and this target's output, string and layout alike, on the wire too", async () => {
    const big = mistakes.find((c) => c.name === "email-size-clipped")!.template;
    for (const [template, target] of [
      [withTypo, "html"],
      [big, "mjml"],
    ] as const) {
      const expected = validateTemplate(template, { targets: [target] }).findings.map((f) => ({ ...f, path: [...f.path] }));
      const string = checked(await handlerWith()(bytes({ template, target, options: { checks: true } })));
      expect((string.response as OkResponse).findings).toEqual(expected);
      expect(Buffer.concat(string.wire ?? []).toString("utf8")).toBe(JSON.stringify(string.response));
      const layout = checked(await handlerWith()(bytes({ template, target, options: { checks: true }, output_format: "layout" })));
      expect((layout.response as OkLayoutResponse).findings).toEqual(expected);
    }
    expect(validateTemplate(big, { targets: ["mjml"] }).findings.map((f) => f.target)).toEqual(["mjml"]);
  });

  it("gives no findings key unless asked, and checks dynamic_data as sample data", async () => {
    const plain = checked(await handlerWith()(bytes({ template: withTypo, target: "html" })));
    expect("findings" in plain.response).toBe(false);
    const sample = checked(await handlerWith()(bytes({ template: TEMPLATE, target: "html", dynamic_data: DATA, options: { checks: true } })));
    expect((sample.response as OkResponse).findings?.map((f) => f.code)).toContain("MERGE_TAG_NO_VALUE");
  });

  it("needs the template in the request: with template_ref alone, a bad request that says so", async () => {
    const handle = handlerWith();
    checked(await handle(bytes({ template: withTypo, template_ref: "t@1", target: "html" })));
    const handled = checked(await handle(bytes({ template_ref: "t@1", target: "html", options: { checks: true } })));
    expect(asError(handled)).toMatchObject({ code: "BAD_REQUEST", issues: [{ loc: ["options", "checks"], type: "checks_need_template" }] });
    expect(handled.exitCode).toBe(EXIT.BAD_REQUEST);
  });
});

describe("bad requests", () => {
  const cases: Array<[string, Buffer, string, string[][]]> = [
    ["not JSON", bytes("{nope"), "INVALID_JSON", []],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), "INVALID_JSON", []],
    ["a JSON array", bytes([1, 2]), "BAD_REQUEST", [[]]],
    ["no target", bytes({ template: TEMPLATE }), "BAD_REQUEST", [["target"]]],
    ["an unknown target", bytes({ template: TEMPLATE, target: "pdf" }), "BAD_REQUEST", [["target"]]],
    ["an unknown key", bytes({ template: TEMPLATE, target: "html", minify: true }), "BAD_REQUEST", [["minify"]]],
    ["an unknown option", bytes({ template: TEMPLATE, target: "html", options: { pretty: true } }), "BAD_REQUEST", [["options", "pretty"]]],
    [
      "a non-string merge tag",
      bytes({ template: TEMPLATE, target: "html", dynamic_data: { merge_tags: { text: { a: 1 } } } }),
      "BAD_REQUEST",
      [["dynamic_data", "merge_tags", "text", "a"]],
    ],
    ["neither template nor template_ref", bytes({ target: "html" }), "BAD_REQUEST", [["template"]]],
  ];
  it.each(cases)("%s → %s, exit 2", async (_name, input, code, locs) => {
    const handled = checked(await handlerWith()(input));
    expect(handled.exitCode).toBe(EXIT.BAD_REQUEST);
    const error = asError(handled);
    expect(error.code).toBe(code);
    expect(error.issues.map((i) => i.loc)).toEqual(locs);
  });

  it("says which problem invalid UTF-8 is", async () => {
    const error = asError(await handlerWith()(Buffer.from([0x7b, 0xc3, 0x28, 0x7d])));
    expect(error.message).toMatch(/UTF-8/);
  });

  it("refuses nesting deeper than the limit before parsing it, at any size", async () => {
    for (const depth of [MAX_JSON_DEPTH + 1, 1_000_000]) {
      const deep = `{"template":${"[".repeat(depth)}${"]".repeat(depth)},"target":"html"}`;
      const error = asError(checked(await handlerWith()(bytes(deep))));
      expect(error.code).toBe("BAD_REQUEST");
      expect(error.issues[0]?.type).toBe("too_deep");
    }
  });

  it("does not count brackets inside strings as nesting", async () => {
    const template = { ...TEMPLATE, template_name: "[".repeat(MAX_JSON_DEPTH * 2) };
    const handled = await handlerWith()(bytes({ template, target: "html" }));
    expect(handled.exitCode).toBe(EXIT.OK);
  });

  it("measures nesting like a character-by-character scan, escapes and unclosed strings included", () => {
    const reference = (text: string): number => {
      let depth = 0;
      let max = 0;
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
          if (c === "\\") i++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === "[" || c === "{") max = Math.max(max, ++depth);
        else if (c === "]" || c === "}") depth--;
      }
      return max;
    };
    const texts = fc.sample(fc.string({ unit: fc.constantFrom(...'[]{}"\\ab,:'.split("")), maxLength: 40 }), { numRuns: 20_000, seed: 3 });
    for (const text of [...texts, '"\\\\"[', '"\\\\\\"[', '["a\\"]"]', '"']) expect(maxNesting(text), JSON.stringify(text)).toBe(reference(text));
  });

  it("echoes a readable id even when the rest of the request is malformed", async () => {
    const handled = await handlerWith()(bytes({ id: "keep-me", target: "nope" }));
    expect(handled.response.id).toBe("keep-me");
  });

  it("maps every error code to the documented exit status", () => {
    expect(ERROR_CODES).toEqual({
      RENDER_ERROR: 1,
      INTERNAL_ERROR: 1,
      INVALID_JSON: 2,
      REQUEST_TOO_LARGE: 2,
      BAD_REQUEST: 2,
      TEMPLATE_REF_UNKNOWN: 2,
    });
  });
});

describe("template_ref", () => {
  it("an unknown ref is TEMPLATE_REF_UNKNOWN, distinct from a bad request", async () => {
    const handled = checked(await handlerWith()(bytes({ id: 1, template_ref: "t@1", target: "html" })));
    expect(asError(handled).code).toBe("TEMPLATE_REF_UNKNOWN");
    expect(asError(handled).issues[0]?.loc).toEqual(["template_ref"]);
    expect(handled.exitCode).toBe(EXIT.BAD_REQUEST);
  });

  it("after the full template is sent with a ref, the ref alone renders the same template object", async () => {
    const seen: unknown[] = [];
    const spy: EnginePort = {
      ...libraryEngine,
      render: (template, options) => {
        seen.push(template);
        return libraryEngine.render(template, options);
      },
    };
    const handle = createHandler({ engine: spy, store: new TemplateStore() });
    const first = await handle(bytes({ template: TEMPLATE, template_ref: "t@1", target: "html", dynamic_data: DATA }));
    const second = checked(await handle(bytes({ template_ref: "t@1", target: "html", dynamic_data: DATA })));
    const third = checked(await handle(bytes({ template_ref: "t@1", target: "react-email" })));
    expect(first.exitCode).toBe(EXIT.OK);
    expect((second.response as OkResponse).output).toBe((first.response as OkResponse).output);
    expect(third.exitCode).toBe(EXIT.OK);
    expect(seen[1]).toBe(seen[0]); // the kept parse, so the engine's per-template cache can hit
    expect(seen[2]).toBe(seen[0]);
  });

  it("a template sent again under the same ref replaces the kept one", async () => {
    const handle = handlerWith();
    await handle(bytes({ template: TEMPLATE, template_ref: "t", target: "html" }));
    const renamed = { ...TEMPLATE, template_id: "renamed" };
    await handle(bytes({ template: renamed, template_ref: "t", target: "html" }));
    const handled = await handle(bytes({ template_ref: "t", target: "html" }));
    expect((handled.response as OkResponse).template_id).toBe((await render(renamed, { target: "html" })).templateId);
  });

  it("the store evicts the least recently used entry by count and by bytes", () => {
    const store = new TemplateStore(2, 100);
    store.set("a", { n: 1 }, 10);
    store.set("b", { n: 2 }, 10);
    expect(store.get("a")).toEqual({ n: 1 }); // a is now the most recent
    store.set("c", { n: 3 }, 10);
    expect(store.get("b")).toBeUndefined();
    expect(store.get("a")).toEqual({ n: 1 });
    store.set("big", { n: 4 }, 95); // over the byte bound with anything else: only it stays
    expect(store.size).toBe(1);
    expect(store.get("big")).toEqual({ n: 4 });
  });
});

describe("output_format layout", () => {
  /** What a client does: keep every layout's parts by id, and join them with each response's values. */
  function layoutClient() {
    const kept = new Map<number, readonly string[]>();
    return (response: Response): string => {
      const { layout, values } = response as OkLayoutResponse;
      if (layout.parts) kept.set(layout.id, layout.parts);
      const parts = kept.get(layout.id);
      if (parts === undefined) throw new Error(`layout ${layout.id} arrived without parts and was never sent`);
      expect(values.length).toBe(parts.length - 1);
      return parts.map((part, i) => (i === 0 ? part : values[i - 1]! + part)).join("");
    };
  }

  it("joined with its values, a layout gives exactly the string output, for every golden fixture and target", async () => {
    const handle = handlerWith();
    const join = layoutClient();
    for (const c of listCases("render")) {
      for (const target of ["html", "mjml", "react-email"] as const) {
        const request = { template: c.template, target, dynamic_data: c.dynamicData, options: { minify: c.minify, strict: c.strict } };
        const whole = checked(await handle(bytes(request))).response as OkResponse;
        for (let round = 0; round < 2; round++) {
          const layout = checked(await handle(bytes({ ...request, output_format: "layout" }))).response as OkLayoutResponse;
          expect(join(layout), `${c.name} ${target}`).toBe(whole.output);
          expect(layout.warnings).toEqual(whole.warnings);
          expect(layout).not.toHaveProperty("output");
        }
      }
    }
  });

  it("sends a layout's parts once per process; later renders name it by id and carry only values", async () => {
    const handle = handlerWith();
    const request = { template: TEMPLATE, template_ref: "t", target: "html", dynamic_data: DATA, output_format: "layout" };
    const first = checked(await handle(bytes(request))).response as OkLayoutResponse;
    const other = { ...DATA, merge_tags: { text: { first_name: "Grace" } } };
    const second = checked(await handle(bytes({ id: 2, template_ref: "t", target: "html", dynamic_data: other, output_format: "layout" })))
      .response as OkLayoutResponse;
    expect(first.layout.parts?.length).toBeGreaterThan(1);
    expect(second).toMatchObject({ id: 2, layout: { id: first.layout.id } });
    expect(second.layout.parts).toBeUndefined();
    expect(second.values).toContain("Grace");
    expect(JSON.stringify(second).length).toBeLessThan(JSON.stringify(first).length / 10);
  });

  it("layout_parts: true sends the parts again, for a client that dropped them", async () => {
    const handle = handlerWith();
    const request = { template: TEMPLATE, target: "mjml", dynamic_data: DATA, output_format: "layout" };
    const first = (await handle(bytes(request))).response as OkLayoutResponse;
    const again = checked(await handle(bytes({ ...request, layout_parts: true }))).response as OkLayoutResponse;
    expect(again.layout).toEqual(first.layout);
  });

  it("gives a different id to a different layout: another target, or another visible set", async () => {
    const handle = handlerWith();
    const ids = new Set<number>();
    for (const [target, plan] of [
      ["html", "pro"],
      ["mjml", "pro"],
      ["html", "free"],
    ] as const) {
      const response = (await handle(bytes({ template: TEMPLATE, target, dynamic_data: { ...DATA, context: { plan } }, output_format: "layout" })))
        .response as OkLayoutResponse;
      expect(response.layout.parts).toBeDefined();
      ids.add(response.layout.id);
    }
    expect(ids.size).toBe(3);
  });

  it("an engine that cannot split its output gives a one-part layout", async () => {
    const whole: EnginePort = {
      ...libraryEngine,
      render: async (t, o) => {
        const r = await libraryEngine.render(t, o);
        return { target: r.target, templateId: r.templateId, warnings: r.warnings, output: r.output };
      },
    };
    const handle = createHandler({ engine: whole, store: new TemplateStore() });
    const response = checked(await handle(bytes({ template: TEMPLATE, target: "html", output_format: "layout" }))).response as OkLayoutResponse;
    expect(response.values).toEqual([]);
    expect(response.layout.parts).toEqual([(await render(TEMPLATE, { target: "html" })).output]);
  });

  it("refuses an unknown output_format as a bad request naming the field", async () => {
    const handled = checked(await handlerWith()(bytes({ template: TEMPLATE, target: "html", output_format: "pieces" })));
    expect(asError(handled).code).toBe("BAD_REQUEST");
    expect(asError(handled).issues[0]?.loc).toEqual(["output_format"]);
  });
});

describe("line framing", () => {
  it("splits lines across chunks, skips blank lines, keeps a last line without newline", () => {
    const splitter = new LineSplitter(1000);
    const frames = [
      ...splitter.push(Buffer.from('{"a"')),
      ...splitter.push(Buffer.from(':1}\n\r\n  \n{"b":2}\n{"c"')),
      ...splitter.push(Buffer.from(":3}")),
      ...splitter.end(),
    ];
    expect(frames.map((f) => (f.kind === "line" ? new TextDecoder().decode(f.bytes) : f.kind))).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("drops an oversized line without buffering it and goes on with the next", () => {
    const splitter = new LineSplitter(10);
    const frames = [...splitter.push(Buffer.from("x".repeat(8))), ...splitter.push(Buffer.from(`${"y".repeat(20)}\nok\n`))];
    expect(frames).toEqual([
      { kind: "too_large", size: 28 },
      { kind: "line", bytes: Buffer.from("ok") },
    ]);
  });
});

/** An in-memory stdout; `fail` makes every write fail like a closed pipe. */
function memoryStdout(fail = false): { stream: Writable; lines: () => Response[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (fail) done(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      else {
        chunks.push(chunk.toString());
        done();
      }
    },
  });
  const lines = () =>
    chunks
      .join("")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Response);
  return { stream, lines };
}

async function* chunksOf(...parts: Array<string | Buffer>): AsyncGenerator<Buffer> {
  for (const part of parts) yield typeof part === "string" ? Buffer.from(part) : part;
}

describe("--serve loop", () => {
  it("answers every line in order and survives every kind of bad request", async () => {
    const out = memoryStdout();
    const line = (v: unknown) => `${typeof v === "string" ? v : JSON.stringify(v)}\n`;
    const deep = `{"id":"deep","template":${"[".repeat(5000)}${"]".repeat(5000)},"target":"html"}`;
    const code = await runServe({
      handler: handlerWith(),
      engineVersion: ENGINE_VERSION,
      output: new Output(out.stream),
      input: chunksOf(
        line("not json"),
        Buffer.concat([Buffer.from('{"id":"utf8","target":"html","template":{"x":"'), Buffer.from([0xff]), Buffer.from('"}}\n')]),
        line({ id: "target", template: TEMPLATE, target: "pdf" }),
        line(deep),
        `{"id":"huge","template":{"x":"${"a".repeat(MAX_REQUEST_BYTES)}"},"target":"html"}\n`,
        line({ id: "ref-unknown", template_ref: "nope", target: "html" }),
        line({ id: "store", template: TEMPLATE, template_ref: "t@1", target: "html" }),
        line({ id: "use", template_ref: "t@1", target: "html" }),
        line({ id: "invalid", template: { rows: 1 }, target: "html" }),
      ),
    });
    expect(code).toBe(EXIT.OK);
    const responses = out.lines();
    for (const r of responses) expect(responseSchema.safeParse(r).success).toBe(true);
    const summary = responses.map((r) => [r.id ?? null, r.ok ? "ok" : r.error.code]);
    expect(summary).toEqual([
      [null, "INVALID_JSON"],
      [null, "INVALID_JSON"],
      ["target", "BAD_REQUEST"],
      [null, "BAD_REQUEST"],
      [null, "REQUEST_TOO_LARGE"],
      ["ref-unknown", "TEMPLATE_REF_UNKNOWN"],
      ["store", "ok"],
      ["use", "ok"],
      ["invalid", "RENDER_ERROR"],
    ]);
  });

  it("stops with exit 2 when stdout is closed instead of throwing", async () => {
    const out = memoryStdout(true);
    const output = new Output(out.stream);
    const code = await runServe({
      handler: handlerWith(),
      engineVersion: ENGINE_VERSION,
      output,
      input: chunksOf(`${JSON.stringify({ template: TEMPLATE, target: "html" })}\n`),
    });
    expect(code).toBe(EXIT.BAD_REQUEST);
    expect(output.closed).toBe(true);
  });
});

describe("one-shot loop", () => {
  it("renders all of stdin as one request, even split across chunks", async () => {
    const out = memoryStdout();
    const text = JSON.stringify({ template: TEMPLATE, target: "react-email" });
    const code = await runOneShot({
      handler: handlerWith(),
      engineVersion: ENGINE_VERSION,
      output: new Output(out.stream),
      input: chunksOf(text.slice(0, 7), text.slice(7)),
    });
    expect(code).toBe(EXIT.OK);
    expect(out.lines()).toHaveLength(1);
    expect((out.lines()[0] as OkResponse).output).toBe((await render(TEMPLATE, { target: "react-email" })).output);
  });

  it("a 10 MB request is REQUEST_TOO_LARGE, exit 2, after reading all of it", async () => {
    const out = memoryStdout();
    const big = `{"template":{"x":"${"a".repeat(10 * 1024 * 1024)}"},"target":"html"}`;
    const chunks = Array.from({ length: Math.ceil(big.length / 65536) }, (_, i) => big.slice(i * 65536, (i + 1) * 65536));
    const code = await runOneShot({ handler: handlerWith(), engineVersion: ENGINE_VERSION, output: new Output(out.stream), input: chunksOf(...chunks) });
    expect(code).toBe(EXIT.BAD_REQUEST);
    expect(out.lines().map((r) => (r.ok ? "ok" : r.error.code))).toEqual(["REQUEST_TOO_LARGE"]);
  });
});

describe("spec/protocol/v1", () => {
  it("the committed JSON Schemas are what the zod schemas generate (run engine/scripts/generate-protocol-schema.ts)", () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    for (const [name, text] of Object.entries(protocolSchemaFiles())) {
      expect(readFileSync(join(root, PROTOCOL_SCHEMA_DIR, name), "utf8"), `${PROTOCOL_SCHEMA_DIR}/${name} is stale`).toBe(text);
    }
  });
});
