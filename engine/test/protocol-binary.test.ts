/**
 * The built executable, spawned as clients spawn it: exit codes, envelopes on stdout, a clean
 * stderr, and a --serve process that outlives every bad request. The binary is built first when it
 * is missing or older than the sources (never skipped: CI must test the artefact it ships).
 */
import { spawn, spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { createHandler } from "../src/executable/handler.js";
import { TemplateStore } from "../src/executable/template-store.js";
import { warmupTemplate } from "../src/executable/warmup.js";

const WARMUP = warmupTemplate();

import { ENGINE_VERSION, render } from "../src/index.js";
import { MAX_JSON_DEPTH, MAX_REQUEST_BYTES, PROTOCOL_VERSION } from "../src/protocol/constants.js";
import { maxNesting } from "../src/protocol/decode.js";
import { type OkLayoutResponse, type OkResponse, type Response, responseSchema } from "../src/protocol/response-schema.js";
import { BINARY, ensureBinary } from "./support/engine-binary.js";
import { libraryEngine } from "./support/engine-port.js";
import { generateTemplates } from "./support/generated-templates.js";
import { HTML_WASTE_EDGES, HTML_WASTE_TOKENS } from "./support/html-waste-edges.js";
import { LONE_SURROGATE, POSITIONS, positionTemplate } from "./support/malformed-values.js";

const TEMPLATE = WARMUP;

beforeAll(ensureBinary, 300_000);

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function oneShot(input: string | Buffer, args: string[] = []): Run {
  const run = spawnSync(BINARY, args, { input, maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, stdout: run.stdout.toString("utf8"), stderr: run.stderr.toString("utf8") };
}

/** Exactly one envelope on stdout, valid against the response schema, and never a stack trace. */
function envelopeOf(run: Run): Response {
  expect(run.stdout).not.toMatch(/\n\s+at /);
  expect(run.stdout.endsWith("\n")).toBe(true);
  const envelope = JSON.parse(run.stdout) as Response;
  expect(responseSchema.safeParse(envelope).success).toBe(true);
  expect(envelope.engine_version).toBe(ENGINE_VERSION);
  expect(envelope.protocol_version).toBe(PROTOCOL_VERSION);
  return envelope;
}

const codeOf = (r: Response): string => (r.ok ? "ok" : r.error.code);

/** One --serve process answering `lines` (each without its newline): exit 0, one answer a line, in order. */
async function serveLines(lines: readonly (string | Uint8Array)[]): Promise<Response[]> {
  const child = spawn(BINARY, ["--serve"], { stdio: ["pipe", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  for (const line of lines) child.stdin.write(Buffer.concat([typeof line === "string" ? Buffer.from(line) : line, Buffer.from("\n")]));
  child.stdin.end();
  expect(await new Promise((resolve) => child.on("close", resolve))).toBe(0);
  const responses = stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Response);
  expect(responses).toHaveLength(lines.length);
  return responses;
}

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe("one-shot binary", () => {
  it("renders byte-identically to the library, exit 0, nothing on stderr", async () => {
    for (const target of ["html", "mjml", "react-email"] as const) {
      const run = oneShot(JSON.stringify({ template: TEMPLATE, target, dynamic_data: { merge_tags: { text: { first_name: "Zoë & co" } } } }));
      const envelope = envelopeOf(run) as OkResponse;
      expect(run.status).toBe(0);
      expect(run.stderr).toBe("");
      expect(envelope.output).toBe((await render(TEMPLATE, { target, dynamicData: { merge_tags: { text: { first_name: "Zoë & co" } } } })).output);
    }
  });

  it("saves a layout byte for byte as the library does (SHA-256 in C), and renders from it as from the template", async () => {
    const request = { template: TEMPLATE, target: "html", dynamic_data: { merge_tags: { text: { first_name: "Zoë & co" } }, context: { plan: "pro" } } };
    const saved = envelopeOf(oneShot(JSON.stringify({ ...request, save_layout: true }))) as OkResponse;
    const handled = await createHandler({ engine: libraryEngine, store: new TemplateStore() })(Buffer.from(JSON.stringify({ ...request, save_layout: true })));
    expect(saved.saved_layout).toBe((handled.response as OkResponse).saved_layout);
    const used = envelopeOf(oneShot(JSON.stringify({ ...request, saved_layout: saved.saved_layout }))) as OkResponse;
    expect(used.saved_layout_status).toBe("used");
    expect(used.output).toBe(saved.output);
    const garbled = envelopeOf(
      oneShot(JSON.stringify({ ...request, saved_layout: saved.saved_layout!.replace("<body", "<body><script>x</script") })),
    ) as OkResponse;
    expect(garbled.saved_layout_status).toBe("ignored");
    expect(garbled.output).toBe(saved.output);
  });

  it("an invalid template: RENDER_ERROR, exit 1", () => {
    const run = oneShot(JSON.stringify({ template: { rows: 7 }, target: "html" }));
    expect(codeOf(envelopeOf(run))).toBe("RENDER_ERROR");
    expect(run.status).toBe(1);
  });

  const bad: Array<[string, () => string | Buffer, string]> = [
    ["not JSON", () => "this is not json", "INVALID_JSON"],
    ["empty stdin", () => "", "INVALID_JSON"],
    ["JSON of the wrong shape", () => JSON.stringify({ templates: [] }), "BAD_REQUEST"],
    ["an unknown target", () => JSON.stringify({ template: TEMPLATE, target: "pdf" }), "BAD_REQUEST"],
    ["a 10 MB template", () => JSON.stringify({ template: { ...TEMPLATE, template_name: "x".repeat(10 * 1024 * 1024) }, target: "html" }), "REQUEST_TOO_LARGE"],
    ["deeply nested JSON", () => `{"template":${"[".repeat(200_000)}${"]".repeat(200_000)},"target":"html"}`, "BAD_REQUEST"],
    [
      "invalid UTF-8",
      () => Buffer.concat([Buffer.from('{"target":"html","template":{"template_name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]),
      "INVALID_JSON",
    ],
    ["a template_ref this fresh process cannot know", () => JSON.stringify({ template_ref: "t@1", target: "html" }), "TEMPLATE_REF_UNKNOWN"],
  ];
  it.each(bad)("%s → %s, exit 2, an envelope and no stack trace", (_name, input, code) => {
    const run = oneShot(input());
    expect(codeOf(envelopeOf(run))).toBe(code);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("");
  });

  it("a closed stdout: exit 2, a one-line note on stderr, no stack trace", async () => {
    const child = spawn(BINARY, [], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.destroy(); // the reader goes away before the response is written
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.stdin.end(JSON.stringify({ template: TEMPLATE, target: "html" }));
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(status).toBe(2);
    expect(stderr).toMatch(/stdout was closed/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("--version and --help answer on stdout, exit 0; a bad argument is exit 2", () => {
    const version = oneShot("", ["--version"]);
    expect(version.status).toBe(0);
    expect(version.stdout).toBe(`mailrender-engine ${ENGINE_VERSION} (protocol ${PROTOCOL_VERSION})\n`);
    const help = oneShot("", ["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--serve/);
    const wrong = oneShot("", ["--frobnicate"]);
    expect(wrong.status).toBe(2);
    expect(wrong.stdout).toBe("");
    expect(wrong.stderr).toMatch(/unknown argument/);
  });
});

describe("--serve binary", () => {
  it("keeps what it rendered from a saved layout: the next render of the template compiles nothing (the same layout id, no parts)", async () => {
    const request = { template: TEMPLATE, target: "html", dynamic_data: { merge_tags: { text: { first_name: "Zoë & co" } }, context: { plan: "pro" } } };
    const saved = envelopeOf(oneShot(JSON.stringify({ ...request, save_layout: true }))) as OkResponse;
    const { template: _, ...byRef } = { ...request, template_ref: "t@1", output_format: "layout" };
    const [used, next] = (await serveLines([
      JSON.stringify({ ...request, template_ref: "t@1", output_format: "layout", saved_layout: saved.saved_layout }),
      JSON.stringify(byRef),
    ])) as OkLayoutResponse[];
    expect(used?.saved_layout_status).toBe("used");
    expect(used?.layout.parts?.join("")).toContain("<body");
    expect(next?.layout).toEqual({ id: used?.layout.id });
  });

  it("keys a template by its bytes in the request: never another template's output; the same bytes, or the same JSON text, compile once", async () => {
    const a = TEMPLATE;
    const b = positionTemplate("text");
    const reversed = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reversed)
        : typeof v === "object" && v !== null
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reversed(x)]),
            )
          : v;
    const [A, B, reorderedA] = [a, b, reversed(a)].map((t) => JSON.stringify(t));
    // The request's members around the template vary; what the engine renders is JSON.parse's template.
    const requests: [string, unknown][] = [
      [`{"template":${A},"target":"html"}`, a],
      [`{"template":${A},"target":"html","template":${B}}`, b],
      [`{"template":${B},"templ\\u0061te":${A},"target":"html"}`, a],
      [`\ufeff {"dynamic_data":{"merge_tags":{"text":{"x":"\\"template\\":{}"}}},"template" :\t${B} , "target":"html"}`, b],
      [`{"template":${reorderedA},"target":"html"}`, a],
    ];
    const answers = (await serveLines(requests.map(([line]) => line))) as OkResponse[];
    for (const [n, [, template]] of requests.entries()) {
      expect(answers[n]?.output, `request ${n}`).toBe((await render(template, { target: "html" })).output);
    }
    // output_format "layout" names a compiled output already sent by its id alone: a cache hit.
    const layouts = (await serveLines([
      `{"template":${A},"target":"html","output_format":"layout"}`,
      ` {"output_format":"layout","target":"html","template":${A}}`,
      `{"template":${B},"templ\\u0061te":${A},"target":"html","output_format":"layout"}`,
      `{"template":${A},"template_ref":"a","target":"html","output_format":"layout"}`,
      `{"template":${reorderedA},"target":"html","output_format":"layout"}`,
    ])) as OkLayoutResponse[];
    const first = layouts[0]!.layout;
    expect(first.parts).toBeDefined();
    // The same bytes; the text as JSON.stringify writes it (the escaped name: read from the parsed object); kept by ref.
    for (const n of [1, 2, 3]) expect(layouts[n]?.layout, `layout ${n}`).toEqual({ id: first.id });
    // Another spelling of the same template is another key: compiled again (the same output).
    expect(layouts[4]?.layout.id).not.toBe(first.id);
    expect(layouts[4]?.layout.parts).toEqual(first.parts);
  });

  it("answers every line, survives every bad request, keeps templates by ref, exits 0 when stdin closes", async () => {
    const child = spawn(BINARY, ["--serve"], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const send = (line: string | Buffer) => child.stdin.write(line);
    const json = (v: unknown) => `${JSON.stringify(v)}\n`;
    send("not json at all\n");
    send(Buffer.concat([Buffer.from('{"id":"u","target":"html","template":{"a":"'), Buffer.from([0xff]), Buffer.from('"}}\n')]));
    send(json({ id: "shape", templates: [] }));
    send(json({ id: "target", template: TEMPLATE, target: "pdf" }));
    send(`{"template":${"[".repeat(100_000)}${"]".repeat(100_000)},"target":"html"}\n`);
    send(`${JSON.stringify({ id: "big", template: { ...TEMPLATE, template_name: "x".repeat(MAX_REQUEST_BYTES + 10) }, target: "html" })}\n`);
    send(json({ id: "unknown-ref", template_ref: "t@1", target: "html" }));
    send(json({ id: "store", template: TEMPLATE, template_ref: "t@1", target: "html" }));
    send(json({ id: "by-ref", template_ref: "t@1", target: "mjml" }));
    send(json({ id: 42, template: { rows: 7 }, target: "html" }));
    child.stdin.end();
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(status).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).not.toMatch(/\n\s+at /);
    const responses = stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Response);
    for (const r of responses) expect(responseSchema.safeParse(r).success).toBe(true);
    expect(responses.map((r) => [r.id ?? null, codeOf(r)])).toEqual([
      [null, "INVALID_JSON"],
      [null, "INVALID_JSON"],
      ["shape", "BAD_REQUEST"],
      ["target", "BAD_REQUEST"],
      [null, "BAD_REQUEST"],
      [null, "REQUEST_TOO_LARGE"],
      ["unknown-ref", "TEMPLATE_REF_UNKNOWN"],
      ["store", "ok"],
      ["by-ref", "ok"],
      [42, "RENDER_ERROR"],
    ]);
    expect((responses[8] as OkResponse).output).toBe((await render(TEMPLATE, { target: "mjml" })).output);
  });

  it("decodes UTF-8 in C exactly as Node's fatal TextDecoder does, refusing what it refuses (5,000 generated byte strings)", async () => {
    // Each byte string is a request's id (echoed in the answer) in one --serve process; bytes JSON
    // would refuse in a string (controls, '"', '\\') are left out, so only the UTF-8 decides.
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const expected = (bytes: Uint8Array): string | null => {
      try {
        return decoder.decode(bytes);
      } catch {
        return null;
      }
    };
    const next = random(18);
    // Bytes around every boundary the decoder checks: ASCII, continuation, lead bytes, invalid leads.
    const interesting = [0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
    const anyByte = (): number => {
      const b = Math.floor(next() * 256);
      return b < 0x20 || b === 0x22 || b === 0x5c ? 0x41 : b;
    };
    const ids = Array.from({ length: 5000 }, () =>
      Uint8Array.from({ length: Math.floor(next() * 12) }, () => (next() < 0.7 ? (interesting[Math.floor(next() * interesting.length)] as number) : anyByte())),
    );
    const responses = await serveLines(ids.map((id) => Buffer.concat([Buffer.from('{"id":"'), id, Buffer.from('","template_ref":"none","target":"html"}')])));
    for (const [i, response] of responses.entries()) {
      const text = expected(ids[i]!);
      const got = response.ok ? "ok" : [response.id ?? null, response.error.code, response.error.message];
      const want = text === null ? [null, "INVALID_JSON", "The request is not valid UTF-8"] : [text, "TEMPLATE_REF_UNKNOWN", expect.any(String)];
      expect(got, `bytes ${[...ids[i]!].join(",")}`).toEqual(want);
    }
  });

  it("refuses exactly the requests nesting deeper than the limit, as the text scan does (3,000 generated requests)", async () => {
    // The release engine measures the depth on the bytes, in C; the oracle is the library's scan.
    const next = random(7);
    const alphabet = '[]{}"\\ab,:é';
    const texts = Array.from({ length: 3000 }, () => {
      const depth = MAX_JSON_DEPTH - 8 + Math.floor(next() * 12);
      const rest = Array.from({ length: Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
      return `${"[{".repeat(depth / 2)}${"[".repeat(depth % 2)}${rest}`;
    });
    const responses = await serveLines(texts);
    const tooDeep = (r: Response): boolean => !r.ok && r.error.issues.some((issue) => issue.type === "too_deep");
    for (const [i, response] of responses.entries()) expect(tooDeep(response), texts[i]).toBe(maxNesting(texts[i]!) > MAX_JSON_DEPTH);
    expect(responses.filter(tooDeep).length).toBeGreaterThan(500);
    expect(responses.filter((r) => !tooDeep(r)).length).toBeGreaterThan(500);
  });

  it("checks a request's UTF-8 before its nesting, and its nesting before its JSON", () => {
    const deep = "[".repeat(MAX_JSON_DEPTH + 1);
    const failure = (bytes: Buffer): string => (envelopeOf(oneShot(bytes)) as { error: { message: string } }).error.message;
    expect(failure(Buffer.from(`{"a":"\xff","b":${deep}`, "latin1"))).toBe("The request is not valid UTF-8");
    expect(failure(Buffer.from(`{"a":${deep}`))).toBe(`The request nests deeper than ${MAX_JSON_DEPTH} levels`);
    expect(failure(Buffer.from(`{"a":[}`))).toMatch(/^The request is not valid JSON: /);
  });

  it("drops a leading BOM (Windows shells add one) and decodes long mixed text", async () => {
    const dynamic_data = { merge_tags: { text: { first_name: `héllo wörld — 🎉 ${"x".repeat(20_000)} 日本語` } } };
    const run = oneShot(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ template: TEMPLATE, target: "html", dynamic_data }))]));
    expect(run.status).toBe(0);
    expect((envelopeOf(run) as OkResponse).output).toBe((await render(TEMPLATE, { target: "html", dynamicData: dynamic_data })).output);
  });

  it("writes every character of an output as JSON.stringify does: each escape, lone surrogates, non-BMP (quoted and encoded in C)", async () => {
    // A template's own text keeps what a recipient's value may not (lone surrogates): both are written.
    const next = random(29);
    const units = [
      0x00, 0x01, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1f, 0x20, 0x22, 0x2f, 0x5c, 0x7f, 0x80, 0xe9, 0x2028, 0x2029, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffd,
      0xffff,
    ];
    const generated = Array.from({ length: 60 }, () =>
      Array.from({ length: Math.floor(next() * 24) }, () => (next() < 0.8 ? String.fromCharCode(units[Math.floor(next() * units.length)]!) : "😀")).join(""),
    );
    const every = `${Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join("")}\u2028é日😀\uD800x\uDC00 \uDBFF\uDBFF\uDC00`;
    const requests = [every, ...generated].map((text, n) => {
      const template = positionTemplate("text");
      const paragraph = template.rows[0]!.columns[0]!.children[0]!;
      const content = `<p>${text.replace(/[<>&]/g, "")} {{ v }}</p>`;
      return {
        id: n,
        template: { ...template, rows: [{ id: "r", columns: [{ id: "c", children: [{ ...paragraph, props: { content } }] }] }] },
        target: "html" as const,
        dynamic_data: POSITIONS.text.data(text),
      };
    });
    const child = spawnSync(BINARY, ["--serve"], { input: `${requests.map((r) => JSON.stringify(r)).join("\n")}\n`, maxBuffer: 64 * 1024 * 1024 });
    const lines = child.stdout
      .subarray(0, -1)
      .toString("latin1")
      .split("\n")
      .map((line) => Buffer.from(line, "latin1"));
    expect(lines).toHaveLength(requests.length);
    const escapes = new Set<string>();
    for (const [n, bytes] of lines.entries()) {
      const envelope = JSON.parse(bytes.toString("utf8")) as OkResponse;
      expect(Buffer.from(JSON.stringify(envelope)).equals(bytes), `answer ${n}`).toBe(true);
      const { template, target, dynamic_data } = requests[n]!;
      expect(envelope.output).toBe((await render(template, { target, dynamicData: dynamic_data })).output);
      for (const [, found] of bytes.toString("utf8").matchAll(/\\(u[0-9a-f]{2}|.)/g)) escapes.add(found!);
    }
    // The test reaches every kind of escape JSON.stringify writes, lone surrogates included.
    expect([...escapes].sort()).toEqual(expect.arrayContaining(['"', "\\", "b", "f", "n", "r", "t", "u00", "ud8", "udb", "udc", "udf"]));
  });

  it("minifies html and mjml as the library does (in C in the release build): every block, and texts of every kind of white space", async () => {
    // JavaScript's white space, and characters that are not (U+0085, U+180E, U+200B) or that look
    // like ASCII in another case (ſ, K), each beside line breaks and tags, where the minifier trims.
    const next = random(31);
    const pieces = ["\n", "\r\n", " ", "  ", "\t", "\u00a0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"];
    const others = ["\u0085", "\u180e", "\u200b", "\u017f", "\u212a", "é", "日", "😀", "x", "<b>b</b>", "<br>", "&nbsp;"];
    const pick = (list: readonly string[]) => list[Math.floor(next() * list.length)]!;
    const text = () => Array.from({ length: 4 + Math.floor(next() * 24) }, () => pick(next() < 0.6 ? pieces : others)).join("");
    const spaced = Array.from({ length: 40 }, (_, n) => {
      const template = positionTemplate("text");
      const paragraph = template.rows[0]!.columns[0]!.children[0]!;
      const children = [0, 1, 2].map((i) => ({ ...paragraph, id: `p${i}`, props: { content: `<p>${text()}</p>${text()}<p>${text()}</p>` } }));
      return { ...template, template_id: `spaced-${n}`, rows: [{ id: "r", columns: [{ id: "c", children }] }] };
    });
    const templates = [...generateTemplates(30, 7).map((c) => c.template), ...spaced];
    const requests = templates.flatMap((template, n) => (["html", "mjml"] as const).map((target) => ({ id: `${n}-${target}`, template, target })));
    const answers = await serveLines(requests.map((r) => JSON.stringify(r)));
    for (const [n, answer] of answers.entries()) {
      const { template, target } = requests[n]!;
      expect(answer.ok, `answer ${n}`).toBe(true);
      expect((answer as OkResponse).output, `answer ${n}`).toBe((await render(template, { target })).output);
    }
  });

  it("cleans up html as the library does (in C in the release build): every rule's edges, alone and mixed, minified and not", async () => {
    const next = random(37);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    const glue = ["", "\n", " ", "\u00a0", "\u2028", "\u3000", "é", "😀"];
    const paragraph = (content: string, id: string) => ({ id, type: "component", componentType: "paragraph", props: { content } });
    const menu = { id: "m", type: "component", componentType: "menu", props: { items: [{ label: "A", link: "https://example.com/a", enabled: true }] } };
    const button = { id: "b", type: "component", componentType: "button", props: { text: "Go", link: "https://example.com/b" } };
    const template = (n: string, columns: { id: string; children: unknown[] }[]) => ({
      ...positionTemplate("text"),
      template_id: `waste-${n}`,
      rows: [{ id: "r", columns }],
    });
    const mixed = () => Array.from({ length: 2 + Math.floor(next() * 4) }, () => pick(HTML_WASTE_EDGES) + pick(glue)).join(pick(glue));
    const soup = () => Array.from({ length: 10 + Math.floor(next() * 60) }, () => pick(HTML_WASTE_TOKENS)).join("");
    const templates = [
      ...HTML_WASTE_EDGES.map((content, n) => template(`edge-${n}`, [{ id: "c", children: [paragraph(content, "p")] }])),
      ...Array.from({ length: 30 }, (_, n) => template(`mixed-${n}`, [{ id: "c", children: [paragraph(mixed(), "p"), paragraph(mixed(), "q")] }])),
      ...Array.from({ length: 40 }, (_, n) => template(`soup-${n}`, [{ id: "c", children: [paragraph(soup(), "p"), paragraph(`<p>${soup()}</p>`, "q")] }])),
      template("menu", [{ id: "c", children: [menu] }]),
      template("menu-checkbox", [{ id: "c", children: [menu, paragraph('<p>class="mj-menu-checkbox"</p>', "p")] }]),
      template("button", [{ id: "c", children: [button, paragraph(HTML_WASTE_EDGES.at(-1)!, "p")] }]),
      template("empty-column", [
        { id: "c", children: [] },
        { id: "d", children: [button] },
        { id: "e", children: [] },
      ]),
    ];
    const requests = templates.flatMap((t, n) =>
      [true, false].map((minify) => ({ id: `${n}-${minify}`, template: t, target: "html" as const, options: { minify } })),
    );
    const answers = await serveLines(requests.map((r) => JSON.stringify(r)));
    for (const [n, answer] of answers.entries()) {
      const { template: t, options } = requests[n]!;
      expect(answer.ok, `answer ${n}`).toBe(true);
      expect((answer as OkResponse).output, `answer ${n}`).toBe((await render(t, { target: "html", minify: options.minify })).output);
    }
  });

  it("pipelined requests come back in order with their ids", async () => {
    const child = spawn(BINARY, ["--serve"], { stdio: ["pipe", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    const ids = Array.from({ length: 50 }, (_, i) => `r${i}`);
    child.stdin.write(`${JSON.stringify({ id: "r0", template: TEMPLATE, template_ref: "t", target: "html" })}\n`);
    for (const id of ids.slice(1))
      child.stdin.write(`${JSON.stringify({ id, template_ref: "t", target: "html", dynamic_data: { merge_tags: { text: { first_name: id } } } })}\n`);
    child.stdin.end();
    await new Promise((resolve) => child.on("close", resolve));
    const responses = stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Response);
    expect(responses.map((r) => r.id)).toEqual(ids);
    expect(responses.every((r) => r.ok)).toBe(true);
  });
});

describe("recipient values that are not valid Unicode", () => {
  const positions = Object.keys(POSITIONS) as Array<keyof typeof POSITIONS>;
  const values = ["\uD800", "x\uDFFFy", "%\uDBFF<>\"'{}"];

  it("one-shot: a lone surrogate in a URL part renders, exit 0, with a warning", () => {
    const run = oneShot(JSON.stringify({ template: positionTemplate("url-part"), target: "html", dynamic_data: { merge_tags: { text: { v: "\uD800" } } } }));
    const envelope = envelopeOf(run) as OkResponse;
    expect(run.status).toBe(0);
    expect(envelope.output).toContain("?q=%EF%BF%BD");
    expect(envelope.warnings.map((w) => w.code)).toEqual(["MALFORMED_MERGE_TAG_VALUE"]);
  });

  it("--serve: every position × target × value renders like the library, never an error", async () => {
    const requests = positions.flatMap((position) =>
      (["html", "mjml", "react-email"] as const).flatMap((target) =>
        values.map((v) => ({ template: positionTemplate(position), target, dynamic_data: POSITIONS[position].data(v) })),
      ),
    );
    const responses = await serveLines(requests.map((request) => JSON.stringify(request)));
    for (const [i, response] of responses.entries()) {
      expect(codeOf(response)).toBe("ok");
      const ok = response as OkResponse;
      expect(ok.output).not.toMatch(LONE_SURROGATE);
      expect(ok.warnings.map((w) => w.code)).toContain("MALFORMED_MERGE_TAG_VALUE");
      const request = requests[i]!;
      expect(ok.output).toBe((await render(request.template, { target: request.target, dynamicData: request.dynamic_data })).output);
    }
  });
});
