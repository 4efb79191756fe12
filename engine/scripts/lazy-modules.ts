/**
 * Packages the release engine reads only when a render first needs them. A QuickJS process reads
 * its whole bytecode and runs every module's top-level code at start, so a package in the bundle
 * costs every process; htmlparser2 (with entities' decode tables) serves only what the engine's own
 * readers leave to it — rich text beyond what an editor writes, plain text, the react-email target's
 * expressions — and was a tenth of `--version`.
 *
 * Each is bundled on its own as a classic script that sets one global (`global`), compiled by qjsc to
 * a bytecode array appended to the engine's C, and read and run by a function of the generated C
 * (`mailrenderLoad…`) the first time the engine's bundle uses the package: there the package is a
 * module of the same exports (`exports`, classes constructed through the loaded ones). The Node
 * build bundles the packages as they are.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type BuildOptions, build, type Plugin } from "esbuild";

interface LazyModule {
  /** The package, as the engine imports it. */
  readonly name: string;
  /** The classes the engine imports from it (only `new` of each: a constructor that returns the loaded class's instance). */
  readonly classes: readonly string[];
  /** The global its script sets to its exports, and the stem of its C names. */
  readonly global: string;
}

export const LAZY_MODULES: readonly LazyModule[] = [{ name: "htmlparser2", classes: ["Parser"], global: "mailrenderHtmlparser2" }];

const loaderName = (module: LazyModule): string => module.global.replace(/^mailrender/, "mailrenderLoad");
const bytecodeName = (module: LazyModule): string => `${module.global}_bytecode`;

/** The engine bundle's stand-in for each lazy package: its classes, loading the package on first construction. */
export const lazyModulesPlugin: Plugin = {
  name: "lazy-modules",
  setup(b) {
    const byName = new Map(LAZY_MODULES.map((module) => [module.name, module]));
    const filter = new RegExp(`^(${LAZY_MODULES.map((module) => module.name).join("|")})$`);
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: "lazy-module" }));
    b.onLoad({ filter: /.*/, namespace: "lazy-module" }, (args) => {
      const module = byName.get(args.path) as LazyModule;
      const contents = [
        `let loaded;`,
        `const load = () => loaded ??= (${loaderName(module)}(), globalThis.${module.global});`,
        ...module.classes.map((name) => `export class ${name} { constructor(...args) { return new (load().${name})(...args); } }`),
      ].join("\n");
      return { contents, loader: "js" };
    });
  },
};

/**
 * Each lazy package bundled (with `options`, the engine bundle's, its plugins included) and compiled
 * to C: the bytecode arrays, their loaders, and the lines that install the loaders in `main`. Also
 * the bundles' inputs, for the third-party notices.
 */
export async function lazyModulesC(
  qjsc: string,
  work: string,
  strip: readonly string[],
  options: BuildOptions,
): Promise<{ definitions: string; installs: string; inputs: string[] }> {
  const definitions: string[] = [];
  const installs: string[] = [];
  const inputs: string[] = [];
  const { entryPoints: _engine, ...shared } = options;
  for (const module of LAZY_MODULES) {
    const script = join(work, `${module.name}.lazy.js`);
    const result = await build({
      ...shared,
      stdin: { contents: `export { ${module.classes.join(", ")} } from "${module.name}";`, resolveDir: work, loader: "js" },
      outfile: script,
      format: "iife",
      globalName: module.global,
      metafile: true,
    });
    inputs.push(...Object.keys(result.metafile?.inputs ?? {}).filter((input) => input !== "<stdin>"));
    const c = join(work, `${module.name}.lazy.c`);
    execFileSync(qjsc, ["-C", ...strip, "-N", bytecodeName(module), "-n", module.name, "-o", c, script]);
    definitions.push(
      readFileSync(c, "utf8"),
      `static JSValue ${loaderName(module)}(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)`,
      "{",
      `    JSValue script = JS_ReadObject(ctx, ${bytecodeName(module)}, ${bytecodeName(module)}_size, JS_READ_OBJ_BYTECODE);`,
      "    if (JS_IsException(script))",
      "        return script;",
      "    return JS_EvalFunction(ctx, script);",
      "}",
    );
    installs.push(
      "  {",
      "    JSValue global = JS_GetGlobalObject(ctx);",
      `    JS_SetPropertyStr(ctx, global, "${loaderName(module)}", JS_NewCFunction(ctx, ${loaderName(module)}, "${loaderName(module)}", 0));`,
      "    JS_FreeValue(ctx, global);",
      "  }",
    );
  }
  return { definitions: `${definitions.join("\n")}\n`, installs: `${installs.join("\n")}\n`, inputs };
}
