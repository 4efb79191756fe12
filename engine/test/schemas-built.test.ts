/**
 * How many zod schemas the engine builds: the release executable builds each in every process
 * (~40–60 K instructions apiece in QuickJS-ng), so a schema that several blocks or fields declare
 * alike is one shared instance (schema/leaves.ts, the shared fields of schema/common.ts), and what a
 * template does not reach is built on first use. Counted from before the render pipeline is
 * imported as the executable imports it. The limits are the counts when they were set (64 at load, 235 for the newsletter) plus a
 * few; a change that needs more says why.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { countSchemasBuilt } from "./support/schemas-built.js";

let built: () => number;
let atLoad = 0;
let engine: typeof import("../src/engine/engine.js");
let host: typeof import("../src/engine/node-host.js");
let caches: typeof import("../src/engine/caches.js");

beforeAll(async () => {
  built = countSchemasBuilt();
  engine = await import("../src/engine/engine.js");
  host = await import("../src/engine/node-host.js");
  caches = await import("../src/engine/caches.js");
  atLoad = built();
});

const newsletter = JSON.parse(readFileSync(new URL("../../fixtures/render/realistic-newsletter/case.json", import.meta.url), "utf8")) as { template: unknown };

describe("zod schemas built", () => {
  it("at load, and by a first render of the newsletter", async () => {
    expect(atLoad, "schemas built when the render pipeline loads").toBeLessThanOrEqual(LOAD_LIMIT);
    const before = built();
    const { output } = await engine.createExecutableEngine({ host: host.NODE_HOST, cache: caches.ONE_RENDER }).render(newsletter.template, { target: "html" });
    expect(output).toContain("Fernhill");
    expect(built() - before, "schemas built by the newsletter's first render").toBeLessThanOrEqual(NEWSLETTER_LIMIT);
  });
});

const LOAD_LIMIT = 66;
const NEWSLETTER_LIMIT = 240;
