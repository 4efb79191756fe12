/**
 * The executables bundle zod with changes to its constructor (scripts/bundle-stubs.ts,
 * `ZOD_PATCHES`): a schema without checks gets `run = parse` from the constructor instead of a
 * queued closure, no class's enumerable prototype members are bound to each instance, and a schema's
 * internals are built when first read. Here the patched zod, bundled as the executables bundle it,
 * builds and parses like the installed one, the engine adds no enumerable member to any zod class
 * (what made the for-in over prototypes idle), and the engine, bundled likewise, builds the internals
 * of few schemas to read a template.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import * as core from "zod/v4/core";
import { engineBundleOptions } from "../scripts/bundle-stubs.js";
import { listCases } from "../scripts/fixture-cases.js";

type Zod = typeof z;
let dir: string;
let patched: Zod;

/** `source` bundled as the executables bundle the engine, and imported. */
async function bundled<T>(name: string, source: string): Promise<T> {
  const entry = join(dir, `${name}-entry.mjs`);
  writeFileSync(entry, source);
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    nodePaths: [join(import.meta.dirname, "..", "..", "node_modules")],
    ...engineBundleOptions,
  });
  return (await import(pathToFileURL(outfile).href)) as T;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "zod-patched-"));
  patched = await bundled<Zod>("zod-patched", 'export * from "zod/mini";\n');
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Schemas of each kind the engine builds, with and without checks, from either zod. */
function schemas(zod: Zod) {
  const color = zod.string().check(zod.trim(), zod.regex(/^#[0-9a-f]{6}$/i));
  return {
    string: zod.string(),
    trimmedColor: color,
    bounded: zod.number().check(zod.minimum(0), zod.maximum(100)),
    integer: zod.number().check(zod.int()),
    boolean: zod.boolean(),
    enum: zod.enum(["a", "b"]),
    literal: zod.literal("x"),
    optional: zod.optional(color),
    nullish: zod.nullish(zod.number()),
    defaulted: zod._default(zod.string(), "d"),
    prefault: zod.prefault(zod.object({ n: zod._default(zod.number(), 1) }), {}),
    pipe: zod.pipe(zod.number(), zod.transform(String)),
    union: zod.union([zod.number(), zod.string().check(zod.minLength(2))]),
    refined: zod.string().check(zod.refine((s) => s.startsWith("ok"), { message: "not ok" })),
    array: zod.array(zod.object({ a: zod.optional(zod.string()) })),
    strict: zod.strictObject({ a: zod.number() }),
    catchall: zod.catchall(zod.object({ a: zod.number() }), zod.union([zod.string(), zod.null()])),
  };
}

const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -1,
  50,
  101,
  2.5,
  "",
  "ok",
  " #A0b1C2 ",
  "#zzzzzz",
  "a",
  "x",
  "12",
  true,
  [],
  [{}],
  [{ a: 1 }],
  {},
  { a: 1 },
  { a: 1, b: "s" },
  { a: 1, b: 2 },
  { n: 2 },
];

describe("zod as the executables bundle it", () => {
  it("parses, refuses and reports exactly as the installed zod", () => {
    const [ours, theirs] = [schemas(patched), schemas(z)];
    for (const name of Object.keys(theirs) as (keyof typeof theirs)[]) {
      for (const value of VALUES) {
        const [a, b] = [ours[name].safeParse(value, { reportInput: true }), theirs[name].safeParse(value, { reportInput: true })];
        expect({ name, value, success: a.success, data: a.data, issues: a.error?.issues }).toEqual({
          name,
          value,
          success: b.success,
          data: b.data,
          issues: b.error?.issues,
        });
      }
    }
  });

  it("runs a schema without checks by its parse, and one with checks through them", () => {
    const [ours, theirs] = [schemas(patched), schemas(z)];
    for (const name of Object.keys(theirs) as (keyof typeof theirs)[]) {
      const [a, b] = [ours[name]._zod, theirs[name]._zod];
      expect({ name, runIsParse: a.run === a.parse }).toEqual({ name, runIsParse: b.run === b.parse });
      expect(typeof a.run).toBe("function");
    }
  });
});

describe("a schema's internals, in the bundle", () => {
  it("are built when first read, and the schema is the same as one built at once", () => {
    schemas(patched); // the first instance of each class is built at once
    const [base, theirBase] = [patched.string(), z.string()];
    const [narrowed, theirNarrowed] = [base.check(patched.minLength(2)), theirBase.check(z.minLength(2))];
    const optional = patched.optional(narrowed);
    expect([base, narrowed, optional].map((schema) => Object.hasOwn(schema, "_zod"))).toEqual([false, false, false]);
    expect(optional.def.innerType).toBe(narrowed);
    expect(optional.type).toBe("optional");
    expect(optional instanceof patched.ZodMiniOptional).toBe(true);
    expect(Object.hasOwn(optional, "_zod")).toBe(true);
    // A clone's parent (what `.check` derives from), set when its internals are built.
    expect(narrowed._zod.parent).toBe(base);
    expect(theirNarrowed._zod.parent).toBe(theirBase);
    expect(optional.safeParse("a").error?.issues).toEqual(z.optional(theirNarrowed).safeParse("a").error?.issues);
    // A class's prototype has no internals of its own, as before.
    expect((patched.ZodMiniString.prototype as { _zod?: unknown })._zod).toBeUndefined();
    // The class keeps the traits its instances have (what the compiled parsers read without building one).
    const late = patched.optional(patched.string());
    expect((patched.ZodMiniOptional as { traits?: ReadonlySet<string> }).traits).toEqual(late._zod.traits);
    expect((patched.ZodMiniOptional as { traits?: ReadonlySet<string> }).traits).toEqual(z.optional(z.string())._zod.traits);
  });

  it("gives each schema its class's members, bound to it (one descriptor a member for every class)", () => {
    const [a, b] = [patched.string(), patched.number()];
    const [checkA, checkB] = [a.check, b.check];
    expect(checkA).not.toBe(checkB);
    expect(a.check).toBe(checkA); // bound once, then an own property
    const detached = checkA(patched.minLength(2));
    expect(detached.safeParse("x").success).toBe(false);
    expect(checkB(patched.minimum(1)).safeParse(0).success).toBe(false);
    expect(Object.keys(patched.ZodMiniNumber.prototype)).toEqual([]);
  });

  it("of few schemas are built by the engine to read a template", async () => {
    const engineSource = (module: string) => JSON.stringify(join(import.meta.dirname, "..", "src", module));
    // The count (support/schemas-built.ts) runs where zod calls its post-processor: once a schema's internals are built.
    const engine = await bundled<{
      built: () => number;
      render: (template: unknown) => Promise<{ output: string }>;
    }>(
      "engine",
      [
        `import { countSchemasBuilt } from ${JSON.stringify(join(import.meta.dirname, "support", "schemas-built.ts"))};`,
        "export const built = countSchemasBuilt();",
        `const { createExecutableEngine } = await import(${engineSource("engine/engine.ts")});`,
        `const { NODE_HOST } = await import(${engineSource("engine/node-host.ts")});`,
        `const { ONE_RENDER } = await import(${engineSource("engine/caches.ts")});`,
        'export const render = (template) => createExecutableEngine({ host: NODE_HOST, cache: ONE_RENDER }).render(template, { target: "html" });',
      ].join("\n"),
    );
    const atLoad = engine.built();
    const newsletter = listCases("render").find((c) => c.name === "realistic-newsletter")!;
    expect((await engine.render(newsletter.template)).output).toContain("Fernhill");
    // The counts when this was written (19 at load, 23 by the render: the first schema of each class and the checks,
    // which are built at once, and those whose internals are read; 34 by the render when a class's traits were read
    // of an instance) plus a few; with every schema built at once, as the installed zod builds them, 64 at load and
    // 235 by the render (schemas-built.test.ts).
    expect(atLoad, "schemas whose internals are built at load").toBeLessThanOrEqual(22);
    expect(engine.built() - atLoad, "schemas whose internals the newsletter's first render builds").toBeLessThanOrEqual(26);
  }, 60_000);
});

describe("zod's classes as the engine leaves them", () => {
  it("have no enumerable prototype members to bind to each instance", async () => {
    // The whole engine loaded: the executable's modules and the library's.
    await import("../src/executable/main.js");
    await import("../src/index.js");
    const classes = [...Object.values(z), ...Object.values(core)].filter(
      (value): value is { prototype: object } => typeof value === "function" && "init" in value && typeof value.prototype === "object",
    );
    expect(classes.length).toBeGreaterThan(50);
    const members = classes.flatMap((cls) => Object.keys(cls.prototype).map((key) => `${(cls as { name?: string }).name}.${key}`));
    expect(members).toEqual([]);
  });
});
