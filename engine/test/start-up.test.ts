/**
 * What keeps the executable's cold start short. Each block's props schema is built on first use
 * (src/blocks/block.ts): building zod schemas is most of the cold start, and a template uses a few
 * of the block types. The engine builds its schemas with zod/mini, never classic zod: a classic
 * instance costs the release executable's interpreter about twice as much to build, its objects
 * compile their parsers with `new Function`, and loading it installs zod's cycle-tracking memoizer
 * process-wide, which walks every container schema on its first parse.
 *
 * Observed through zod's construction hook (`__zod_globalConfig.postProcessor`, called for every
 * schema zod builds), installed before the render pipeline is imported as the executable imports
 * it (the library's index also exports the whole document's schema, which builds them all): this
 * file has its own module graph (vitest isolates test files).
 */
import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { countSchemasBuilt } from "./support/schemas-built.js";

let built: () => number;
let engine: typeof import("../src/engine/engine.js");
let host: typeof import("../src/engine/node-host.js");
let registry: typeof import("../src/blocks/registry.js");

beforeAll(async () => {
  built = countSchemasBuilt();
  engine = await import("../src/engine/engine.js");
  host = await import("../src/engine/node-host.js");
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
    const { output } = await engine.createEngine({ host: host.NODE_HOST }).render(paragraphOnly, { target: "html" });
    expect(output).toContain("Hi");

    const before = built();
    const video = registry.BLOCKS["video"]!.props;
    expect(built(), "the video block's schema was built before anything used it").toBeGreaterThan(before);

    const after = built();
    expect(registry.BLOCKS["video"]!.props).toBe(video);
    expect(built()).toBe(after);
  });
});

describe("the engine's zod", () => {
  it("is zod/mini in every source file", () => {
    const root = new URL("../", import.meta.url);
    const sources = ["src", "runtimes/quickjs"].flatMap((dir) =>
      readdirSync(new URL(dir, root), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".ts"))
        .map((file) => `${dir}/${file}`),
    );
    expect(sources.length).toBeGreaterThan(50);
    const classic = sources.filter((file) => /\sfrom\s+["']zod(?:\/v4)?(?:\/classic)?["']/.test(readFileSync(new URL(file, root), "utf8")));
    expect(classic, "these import classic zod").toEqual([]);
  });
});
