/**
 * The executables bundle zod with changes to its constructor (scripts/bundle-stubs.ts,
 * `ZOD_PATCHES`): a schema without checks gets `run = parse` from the constructor instead of a
 * queued closure, and no class's enumerable prototype members are bound to each instance. Here the
 * patched zod, bundled as the executables bundle it, builds and parses like the installed one, and
 * the engine adds no enumerable member to any zod class (what made the for-in over prototypes idle).
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

type Zod = typeof z;
let dir: string;
let patched: Zod;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "zod-patched-"));
  const entry = join(dir, "entry.mjs");
  writeFileSync(entry, 'export * from "zod/mini";\n');
  const outfile = join(dir, "zod-patched.mjs");
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
  patched = (await import(pathToFileURL(outfile).href)) as Zod;
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
