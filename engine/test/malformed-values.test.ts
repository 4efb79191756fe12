/**
 * Property: a merge-tag value that is not well-formed Unicode (a lone UTF-16 surrogate, which
 * `encodeURIComponent` and UTF-8 cannot carry) never fails a render, in any position and any target.
 * Each lone surrogate becomes U+FFFD and the render warns MALFORMED_MERGE_TAG_VALUE naming the tag.
 * The executable is covered in protocol-binary.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createHandler } from "../src/executable/handler.js";
import { TemplateStore } from "../src/executable/template-store.js";
import { RENDER_TARGETS, render } from "../src/index.js";
import type { OkResponse } from "../src/protocol/response-schema.js";
import { libraryEngine } from "./support/engine-port.js";
import { LONE_SURROGATE, malformed, POSITIONS, positionTemplate } from "./support/malformed-values.js";

describe("a lone surrogate in a merge-tag value never fails a render", () => {
  for (const position of Object.keys(POSITIONS) as Array<keyof typeof POSITIONS>) {
    for (const target of RENDER_TARGETS) {
      it(`${position} × ${target}: replaced by U+FFFD with a warning naming the tag`, async () => {
        const template = positionTemplate(position);
        await fc.assert(
          fc.asyncProperty(malformed, async (value) => {
            const result = await render(template, { target, dynamicData: POSITIONS[position].data(value) });
            expect(result.output).not.toMatch(LONE_SURROGATE);
            const warned = result.warnings.filter((w) => w.code === "MALFORMED_MERGE_TAG_VALUE");
            if (LONE_SURROGATE.test(value)) {
              expect(warned.length).toBeGreaterThan(0);
              expect(warned[0]!.message).toMatch(/\{\{ ?(attr\.|url\.)?v ?\}\}/);
            } else expect(warned).toEqual([]);
          }),
          { numRuns: 150, seed: 20261123 },
        );
      });
    }
  }

  it("a tag's default is not recipient data, but a malformed one is replaced all the same", async () => {
    const template = {
      ...positionTemplate("url-part"),
      rows: [{ columns: [{ children: [{ type: "paragraph", props: { content: "<a href=\"https://e.example/{{ v|'\uD800' }}\">x</a>" } }] }] }],
    };
    const result = await render(template, { target: "html" });
    expect(result.output).toContain("https://e.example/%EF%BF%BD");
  });

  it("through the protocol handler: an ok envelope, same output as the library", async () => {
    const handle = createHandler({ engine: libraryEngine, store: new TemplateStore() });
    for (const target of RENDER_TARGETS) {
      const request = { template: positionTemplate("url-part"), target, dynamic_data: { merge_tags: { text: { v: "\uD800" } } } };
      const handled = await handle(Buffer.from(JSON.stringify(request)));
      expect(handled.response.ok).toBe(true);
      const ok = handled.response as OkResponse;
      expect(ok.output).toBe((await render(request.template, { target, dynamicData: request.dynamic_data })).output);
      expect(ok.warnings.map((w) => w.code)).toContain("MALFORMED_MERGE_TAG_VALUE");
    }
  });
});
