/**
 * What keeps the executable's cold start short. Each block's props schema is built on first use
 * (src/blocks/block.ts): building zod schemas is most of the cold start, and a template uses a few
 * of the block types. The executables replace zod's cycle-tracking memoizer before any schema is
 * built (src/protocol/zod-without-cycle-tracking.ts), which only their first import can do.
 *
 * Observed through zod's construction hook (`__zod_globalConfig.postProcessor`, called for every
 * schema zod builds), installed before the render pipeline is imported as the executable imports
 * it (the library's index also exports the whole document's schema, which builds them all): this
 * file has its own module graph (vitest isolates test files).
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";

let built = 0;
let pipeline: typeof import("../src/render/pipeline.js");
let registry: typeof import("../src/blocks/registry.js");

beforeAll(async () => {
  const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  zodGlobal.__zod_globalConfig ??= {};
  zodGlobal.__zod_globalConfig["postProcessor"] = () => void built++;
  pipeline = await import("../src/render/pipeline.js");
  registry = await import("../src/blocks/registry.js");
});

const paragraphOnly = {
  template_id: "lazy",
  template_name: "lazy",
  schema_version: "1.0",
  canvas: {},
  rows: [
    { id: "r", type: "row", columns: [{ id: "c", children: [{ id: "p", type: "component", componentType: "paragraph", props: { content: "<p>Hi</p>" } }] }] },
  ],
};

describe("block props schemas", () => {
  it("are built when first used, once: a render builds only its blocks' schemas", async () => {
    const { output } = await pipeline.render(paragraphOnly, { target: "html" });
    expect(output).toContain("Hi");

    const before = built;
    const video = registry.BLOCKS.video.props;
    expect(built, "the video block's schema was built before anything used it").toBeGreaterThan(before);

    const after = built;
    expect(registry.BLOCKS.video.props).toBe(video);
    expect(built).toBe(after);
  });
});

describe("the executables' entries", () => {
  it.each(["src/cli.ts", "runtimes/quickjs/host.ts"])("%s imports zod-without-cycle-tracking before anything else", (entry) => {
    const source = readFileSync(new URL(`../${entry}`, import.meta.url), "utf8");
    const firstImport = /^import\s+(?:[^"']*\sfrom\s+)?["']([^"']+)["']/m.exec(source)?.[1];
    expect(firstImport).toMatch(/\/zod-without-cycle-tracking\.js$/);
  });
});
