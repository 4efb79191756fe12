/** What both executable builds bundle alike: the modules left out, and the minification. */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { BuildOptions, Plugin } from "esbuild";
import { applyPatches, type SourcePatch } from "./source-patch.js";

/**
 * Modules replaced by a stub in the bundle. Each is reachable only through a code path the engine
 * never takes, and each costs start-up: a launched binary loads every module in its bundle (the Node
 * build deserialises what they built at load, the QuickJS build evaluates them), so a module in the
 * bundle costs even if never run.
 * - domutils, dom-serializer, domhandler (and, through them, entities' encoding tables):
 *   htmlparser2 re-exports them for its DOM helpers; the engine uses only its streaming Parser
 *   (content HTML and its plain text, src/markup/).
 * A stubbed module is a function that throws if called, so a path that does reach one fails loudly
 * (RENDER_ERROR) instead of rendering something else. The binary tests compare the binary's output
 * with the library's, byte for byte. Shared by the Node build (build-binary.ts) and the QuickJS
 * build (build-quickjs.ts).
 */
const STUBBED = ["domutils", "dom-serializer", "domhandler"];
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
export const stubs: Plugin = {
  name: "stubs",
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${STUBBED.map(escapeRe).join("|")})$`) }, (args) => ({ path: args.path, namespace: "stub" }));
    b.onLoad({ filter: /.*/, namespace: "stub" }, (args) => ({
      contents: `module.exports = function stubbed() { throw new Error(${JSON.stringify(`${args.path} is left out of the mailrender-engine binary`)}); };`,
      loader: "js",
    }));
    // zod's `z.locales` (every language's messages, ~300 KB): the engine keeps zod's default English,
    // which zod loads from locales/en.js directly.
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: "zod-locales", namespace: "empty" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "module.exports = {};", loader: "js" }));
  },
};

/**
 * entities' HTML decode trie (htmlparser2's tokenizer holds it) as its bytes in base64, decoded in
 * C (`Uint8Array.fromBase64` in QuickJS, `Buffer` in Node), instead of the packed string the package
 * unpacks in JavaScript at module load: the QuickJS build runs module load on every launch, where
 * the unpacking was ~6% of it and an array literal of the 13,494 values still ~5.6 M instructions
 * (base64: ~0.6 M). The same values, taken at build time from the installed package itself; the
 * bytes are little-endian, as every platform the engine ships for (a big-endian one copies them).
 */
const precomputedDecodeTree: Plugin = {
  name: "precomputed-decode-tree",
  setup(b) {
    b.onLoad({ filter: /[\\/]entities[\\/]dist[\\/]generated[\\/]decode-data-html\.js$/ }, async (args) => {
      const { htmlDecodeTree } = (await import(pathToFileURL(args.path).href)) as { htmlDecodeTree: Uint16Array };
      const bytes = Buffer.alloc(htmlDecodeTree.length * 2);
      for (const [i, value] of htmlDecodeTree.entries()) bytes.writeUInt16LE(value, 2 * i);
      const base64 = bytes.toString("base64");
      const contents = [
        `const base64 = "${base64}";`,
        "const bytes = typeof Uint8Array.fromBase64 === 'function' ? Uint8Array.fromBase64(base64) : new Uint8Array(Buffer.from(base64, 'base64'));",
        "const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;",
        `export const htmlDecodeTree = littleEndian ? new Uint16Array(bytes.buffer) : Uint16Array.from({ length: bytes.length / 2 }, (_, i) => bytes[2 * i] | (bytes[2 * i + 1] << 8));`,
      ].join("\n");
      return { contents, loader: "js" };
    });
  },
};

/**
 * Changes to zod's constructor in the bundle (docs/design/template-reading.md, "What building a
 * schema costs"): the release executable builds every schema it uses afresh in every process, and
 * these were over a third of a constructor call's instructions in QuickJS-ng. Each keeps what the
 * engine sees of a schema; a patch whose anchor is not found exactly once stops the build, so a new
 * zod version is looked at, not patched blindly. test/zod-bundle-patches.test.ts checks both
 * assumptions below on the engine as loaded, and that a schema whose internals are built late
 * parses, refuses and reports as the installed zod's.
 */
export const ZOD_PATCHES: Readonly<Record<"core" | "util" | "schemas", readonly SourcePatch[]>> = {
  core: [
    {
      why: "no enumerable members on zod's classes to bind to each instance: the engine adds none, so the for-in over four prototypes a schema (each with Object.prototype behind it) finds nothing",
      before: `        // support prototype modifications; for-in avoids the array allocation of Object.keys on the (usually empty) prototype
        const proto = _.prototype;
        for (const k in proto) {
            if (!Object.prototype.hasOwnProperty.call(proto, k))
                continue;
            if (!(k in inst)) {
                inst[k] = proto[k].bind(inst);
            }
        }
`,
      after: "",
    },
    {
      why: "a schema without checks runs its parse: set once its initializers have run, where zod queued a closure per schema to do it (first in the queue, as before)",
      before: `        init(inst, def);
        const deferred = inst._zod.deferred;`,
      after: `        init(inst, def);
        const internals = inst._zod;
        if (internals.run === undefined && internals.parse !== undefined)
            internals.run = internals.parse;
        const deferred = internals.deferred;`,
    },
    {
      why: "a zod/mini schema's internals (`_zod`: its initialisers, traits, parse) built when first read, not when it is declared: a template read needs the definitions (`def`) of the schemas it reaches, which the compiled parsers read, and few schemas' internals. The first instance of each class is built at once: its initialisers put the class's members (check, clone, parse, …) on the prototype that later instances share, and the class keeps its traits (the zod classes every instance of it is) for the compiled parsers to read without building an instance",
      before: `    function _(def) {
        const inst = params?.Parent ? newError(Definition) : this;
        init(inst, def);`,
      after: `    const late = !params?.Parent && name.startsWith("ZodMini");
    let first = true;
    function _(def) {
        const inst = params?.Parent ? newError(Definition) : this;
        if (late && !first) {
            // What ZodMiniType's initialiser sets on the instance itself, which needs no internals.
            inst.def = def;
            inst.type = def.type;
            return inst;
        }
        first = false;
        build(inst, def);
        // Every instance of a class is of the same classes: the first one's traits, kept on the class, tell
        // them of any instance without building its internals (the compiled parsers ask, schema/fast-parse.ts).
        if (late)
            Object.defineProperty(_, "traits", { value: inst._zod.traits });
        return inst;
    }
    if (late)
        Object.defineProperty(_.prototype, "_zod", {
            configurable: true,
            get() {
                // The prototype itself has no internals, and a schema being built has none yet (its
                // initialisers ask): both read undefined, as before.
                if (building === this || !Object.hasOwn(this, "def"))
                    return undefined;
                const outer = building;
                building = this;
                try {
                    build(this, this.def);
                }
                finally {
                    building = outer;
                }
                const parent = lateParents.get(this);
                if (parent !== undefined) {
                    lateParents.delete(this);
                    this._zod.parent = parent;
                }
                return this._zod;
            },
        });
    function build(inst, def) {
        init(inst, def);`,
    },
    {
      why: "the schema whose internals are being built (see above)",
      before: "export /*@__NO_SIDE_EFFECTS__*/ function $constructor(",
      after: "let building;\nexport /*@__NO_SIDE_EFFECTS__*/ function $constructor(",
    },
    {
      why: "a clone's parent, for a clone whose internals are built later (util.js)",
      before: 'import { members as installMembers } from "./util.js";',
      after: 'import { members as installMembers, lateParents } from "./util.js";',
    },
  ],
  util: [
    {
      why: "a clone (every `.check(…)`) made without building its source's internals or its own: its parent is kept aside and set when its internals are built",
      before: `export function clone(inst, def, params) {
    const cl = new inst._zod.constr(def ?? inst._zod.def);
    if (!def || params?.parent)
        cl._zod.parent = inst;
    return cl;
}`,
      after: `export const lateParents = new WeakMap();
export function clone(inst, def, params) {
    const cl = inst.def === undefined ? new inst._zod.constr(def ?? inst._zod.def) : new inst.constructor(def ?? inst.def);
    if (!def || params?.parent) {
        if (Object.hasOwn(cl, "_zod"))
            cl._zod.parent = inst;
        else
            lateParents.set(cl, inst);
    }
    return cl;
}`,
    },
    {
      why: "a class's members put on its prototype with descriptors made once per table of members, not a descriptor and two closures per class and member (the getters and setters read only the instance they are called on)",
      before: `export function members(proto, table) {
    for (const key in table) {
        const desc = Object.getOwnPropertyDescriptor(table, key);
        // a getter installs as written, so it stays live: \`description\` reads through to the registry on every access. not enumerable: an object literal's is, and a prototype member never was
        if (desc.get)
            Object.defineProperty(proto, key, { ...desc, enumerable: false });
        // a method materializes bound on first read, which is what keeps a detached member working: \`const opt = schema.optional; opt()\`
        else
            defineBound(proto, key, desc.value);
    }
}`,
      after: `const memberDescriptors = new WeakMap();
export function members(proto, table) {
    let descriptors = memberDescriptors.get(table);
    if (descriptors === undefined) {
        descriptors = [];
        for (const key in table) {
            const desc = Object.getOwnPropertyDescriptor(table, key);
            descriptors.push(key, desc.get ? { ...desc, enumerable: false } : boundDescriptor(key, desc.value));
        }
        memberDescriptors.set(table, descriptors);
    }
    for (let i = 0; i < descriptors.length; i += 2)
        Object.defineProperty(proto, descriptors[i], descriptors[i + 1]);
}`,
    },
    {
      why: "defineBound's descriptor, made once per member (above)",
      before: `function defineBound(proto, key, fn) {
    Object.defineProperty(proto, key, {
        configurable: true,`,
      after: `function defineBound(proto, key, fn) {
    Object.defineProperty(proto, key, boundDescriptor(key, fn));
}
function boundDescriptor(key, fn) {
    return ({
        configurable: true,`,
    },
  ],
  schemas: [
    {
      why: "a schema without checks shares one empty list (read by the loop below, never kept or changed), not a new array each",
      before: `        : defChecks?.length
            ? [...defChecks]
            : [];`,
      after: `        : defChecks?.length
            ? [...defChecks]
            : NO_CHECKS;`,
    },
    {
      why: "the shared empty list",
      before: "export const $ZodType = ",
      after: "const NO_CHECKS = [];\nexport const $ZodType = ",
    },
    {
      why: "the queued closure the constructor now replaces",
      before: `    if (checks.length === 0) {
        // deferred initializer inst._zod.parse is not yet defined
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred?.push(() => {
            inst._zod.run = inst._zod.parse;
        });
    }
    else {`,
      after: `    if (checks.length !== 0) {`,
    },
    {
      why: "a schema's checks attached with index loops: QuickJS makes an iterator object for every for-of, empty arrays included",
      before: `    for (const ch of checks) {
        for (const fn of ch._zod.onattach) {
            fn(inst);
        }
    }`,
      after: `    for (let i = 0; i < checks.length; i++) {
        const onattach = checks[i]._zod.onattach;
        for (let j = 0; j < onattach.length; j++)
            onattach[j](inst);
    }`,
    },
  ],
};

const zodConstruction: Plugin = {
  name: "zod-construction",
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]core[\\/](core|util|schemas)\.js$/ }, (args) => {
      const which = (["core", "util", "schemas"] as const).find((name) => args.path.endsWith(`${name}.js`))!;
      return { contents: applyPatches(readFileSync(args.path, "utf8"), ZOD_PATCHES[which], args.path), loader: "js" };
    });
  },
};

/** esbuild options shared by the Node and the QuickJS bundles. */
export const engineBundleOptions = {
  plugins: [stubs, precomputedDecodeTree, zodConstruction],
  // Whitespace and syntax only: identifiers stay readable in the stack of a bug report.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "error",
  metafile: true,
} satisfies BuildOptions;
