/** Size limits: the node count before parsing, the output size after rendering, in the library and the protocol. */
import { describe, expect, it } from "vitest";
import { createHandler } from "../src/executable/handler.js";
import { TemplateStore } from "../src/executable/template-store.js";
import { DEFAULT_LIMITS, prepareTemplate, RenderError, type RenderLimits, render, validateTemplate } from "../src/index.js";
import type { ErrorResponse, OkResponse } from "../src/protocol/response-schema.js";
import { libraryEngine } from "./support/engine-port.js";

const doc = (rows: unknown[]) => ({ template_id: "limits", template_name: "Limits", schema_version: "1.0", canvas: {}, rows });
const paragraph = (text: string) => ({ type: "component", componentType: "paragraph", props: { content: `<p>${text}</p>` } });

async function failure(json: unknown, limits?: RenderLimits, target: "html" | "mjml" | "react-email" = "html"): Promise<RenderError> {
  const error = await render(json, { target, limits }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RenderError);
  return error as RenderError;
}

describe("node limit", () => {
  it("the 200,000 empty rows are refused before parsing, naming the first row over the limit", async () => {
    const hostile = doc(Array.from({ length: 200_000 }, () => ({})));
    for (const target of ["html", "mjml", "react-email"] as const) {
      const error = await failure(hostile, undefined, target);
      expect(error.issues).toEqual([
        { loc: ["rows", String(DEFAULT_LIMITS.maxNodes)], msg: expect.stringContaining("more than 2000 nodes"), type: "too_many_nodes" },
      ]);
    }
    expect(validateTemplate(hostile).issues[0]?.type).toBe("too_many_nodes");
  });

  it("the default accepts exactly maxNodes nodes and refuses one more", () => {
    expect(DEFAULT_LIMITS).toEqual({ maxNodes: 2000, maxOutputBytes: 16 * 1024 * 1024 });
    expect(validateTemplate(doc(Array.from({ length: 2000 }, () => ({})))).valid).toBe(true);
    expect(validateTemplate(doc(Array.from({ length: 2001 }, () => ({})))).valid).toBe(false);
  });

  it("counts rows, spacers, columns, blocks, nested rows and block list entries, in document order", async () => {
    const nested = doc([
      { type: "row-spacer", height: 8 }, // 1
      {
        columns: [
          // row 2, column 3
          {
            children: [
              paragraph("a"), // 4
              { type: "row", columns: [{ children: [paragraph("b")] }] }, // row 5, column 6, block 7
              { type: "component", componentType: "list", props: { items: ["x", "y"] } }, // 8, entries 9 and 10
            ],
          },
        ],
      },
    ]);
    await expect(render(nested, { target: "html", limits: { maxNodes: 10 } })).resolves.toBeDefined();
    const cases: Array<[number, string[]]> = [
      [9, ["rows", "1", "columns", "0", "children", "2", "props", "items", "1"]],
      [7, ["rows", "1", "columns", "0", "children", "2"]],
      [6, ["rows", "1", "columns", "0", "children", "1", "columns", "0", "children", "0"]],
      [4, ["rows", "1", "columns", "0", "children", "1"]],
      [2, ["rows", "1", "columns", "0"]],
      [1, ["rows", "1"]],
    ];
    for (const [maxNodes, loc] of cases) expect((await failure(nested, { maxNodes })).issues[0]?.loc).toEqual(loc);
  });

  it("a prepared template is counted when prepared, with the limits given there", async () => {
    const rows = Array.from({ length: 30 }, () => ({}));
    expect(() => prepareTemplate(doc(rows), { limits: { maxNodes: 29 } })).toThrow(RenderError);
    const prepared = prepareTemplate(doc(rows), { limits: { maxNodes: 30 } });
    await expect(render(prepared, { target: "mjml" })).resolves.toBeDefined();
  });

  it("a limit that is not a positive integer is a RenderError naming it", async () => {
    for (const maxNodes of [0, -1, 1.5, Number.NaN]) expect((await failure(doc([]), { maxNodes })).issues[0]?.loc).toEqual(["limits", "maxNodes"]);
    expect((await failure(doc([]), { maxOutputBytes: 0 })).issues[0]?.loc).toEqual(["limits", "maxOutputBytes"]);
  });
});

describe("output limit", () => {
  const template = doc([{ columns: [{ children: [paragraph("Hello {{ name }}")] }] }]);

  it("an output of exactly maxOutputBytes renders; one byte less is refused", async () => {
    for (const target of ["html", "mjml", "react-email"] as const) {
      const dynamicData = { merge_tags: { text: { name: "Zoë" } } };
      const { output } = await render(template, { target, dynamicData });
      const bytes = Buffer.byteLength(output, "utf8");
      await expect(render(template, { target, dynamicData, limits: { maxOutputBytes: bytes } })).resolves.toMatchObject({ output });
      const error = await render(template, { target, dynamicData, limits: { maxOutputBytes: bytes - 1 } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RenderError);
      expect((error as RenderError).issues).toEqual([{ loc: [], msg: expect.stringContaining(`${bytes} bytes`), type: "output_too_large" }]);
    }
  });

  it("recipient values count: a long value pushes a small template over the default", async () => {
    const error = await render(template, { target: "html", dynamicData: { merge_tags: { text: { name: "x".repeat(DEFAULT_LIMITS.maxOutputBytes) } } } }).catch(
      (e: unknown) => e,
    );
    expect((error as RenderError).issues[0]?.type).toBe("output_too_large");
  });
});

describe("limits through the protocol", () => {
  const handle = createHandler({ engine: libraryEngine, store: new TemplateStore() });
  const send = (request: unknown) => handle(Buffer.from(JSON.stringify(request)));

  it("options.max_nodes and options.max_output_bytes reach the engine; the defaults apply without them", async () => {
    const rows = Array.from({ length: 2001 }, () => ({}));
    const refused = (await send({ template: doc(rows), target: "html" })).response as ErrorResponse;
    expect(refused.error.code).toBe("RENDER_ERROR");
    expect(refused.error.issues[0]).toMatchObject({ loc: ["rows", "2000"], type: "too_many_nodes" });
    const small = (await send({ template: doc(rows.slice(0, 3)), target: "mjml", options: { max_nodes: 2 } })).response as ErrorResponse;
    expect(small.error.issues[0]).toMatchObject({ loc: ["rows", "2"], type: "too_many_nodes" });
    const kept = (await send({ template: doc(rows.slice(0, 3)), template_ref: "t@1", target: "mjml", options: { max_nodes: 2 } })).response as ErrorResponse;
    expect(kept.error.issues[0]?.type).toBe("too_many_nodes");
    expect(((await send({ template_ref: "t@1", target: "mjml" })).response as ErrorResponse).error.code).toBe("TEMPLATE_REF_UNKNOWN");
    const output = (await send({ template: doc([]), target: "mjml", options: { max_output_bytes: 10 } })).response as ErrorResponse;
    expect(output.error.issues[0]?.type).toBe("output_too_large");
    expect(((await send({ template: doc(rows.slice(0, 3)), target: "mjml", options: { max_nodes: 3 } })).response as OkResponse).ok).toBe(true);
  });

  it("a limit that is not a positive integer is a BAD_REQUEST", async () => {
    for (const options of [{ max_nodes: 0 }, { max_output_bytes: 1.5 }, { max_nodes: "10" }]) {
      expect(((await send({ template: doc([]), target: "html", options })).response as ErrorResponse).error.code).toBe("BAD_REQUEST");
    }
  });
});
