/**
 * `make lint` (and test/layers.test.ts): the folders of engine/src are layers, each importing only
 * from the layers below it, and no files import each other in a loop. The order is declared here,
 * once; engine/README.md ("Source layout") describes it for readers.
 *
 *   tsx engine/scripts/check-layers.ts             check; exit 1 and name each offending import
 *   tsx engine/scripts/check-layers.ts --report    also print the layers, their lines and the import graph's figures
 *   tsx engine/scripts/check-layers.ts --src DIR --layers FILE.json   another tree or another order (JSON: the LAYERS shape)
 *
 * Every import counts, type-only ones and `import("…")` types included: a type-only loop is still a
 * loop a reader has to untangle. Folders that share a rank are peers and may not import each other.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export interface Layer {
  /** Folders directly under src (each with everything inside it), or files at src's root. */
  readonly members: readonly string[];
  readonly role: string;
}

/** engine/src, bottom to top. */
export const LAYERS: readonly Layer[] = [
  { members: ["base"], role: "the public vocabulary (targets, options, results), errors as data, text scanning" },
  { members: ["mjml-to-html"], role: "the MJML → HTML compiler (a port of mjml 5)" },
  { members: ["schema"], role: "schema primitives (colours, spacing, borders, gradients, typography, dark colours) and the editor description's vocabulary" },
  { members: ["data"], role: "recipient data: merge tags, escaping for each position, visibility rules" },
  { members: ["markup"], role: "what blocks write with: the emitter, styles, fonts, content HTML, slot substitution, text helpers" },
  { members: ["blocks"], role: "one folder per block (everything about it), and the registry" },
  {
    members: ["document"],
    role: "the template document: its model, reader and schemas, and the registry's walkers (JSON Schema, editor description, docs, checks)",
  },
  { members: ["targets", "text"], role: "the three targets' documents and the plain-text version (peers)" },
  { members: ["engine"], role: "the engine object (createEngine): render, prepare, validate, inspect, checks; its caches and its host" },
  { members: ["protocol"], role: "the executable's wire format: request and response schemas, envelopes, error and exit codes" },
  { members: ["executable"], role: "the executable: argument dispatch, one-shot and --serve loops, human commands" },
  { members: ["index.ts", "cli.ts"], role: "entries: the library, and the Node executable" },
];

export interface LayerReport {
  readonly files: readonly string[];
  /** Imports between files of engine/src, as [from, to] paths relative to src. */
  readonly imports: readonly (readonly [string, string])[];
  readonly violations: readonly string[];
  readonly backImports: readonly (readonly [string, string])[];
  readonly cycles: readonly (readonly string[])[];
  readonly lines: ReadonlyMap<string, number>;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (entry.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** The layer member a file belongs to: its top folder under src, or its own name at the root. */
const memberOf = (file: string): string => file.split("/")[0] as string;

export function checkLayers(src: string, layers: readonly Layer[] = LAYERS): LayerReport {
  const rank = new Map<string, number>();
  layers.forEach((layer, index) => {
    for (const member of layer.members) rank.set(member, index);
  });
  const files = sourceFiles(src)
    .map((path) => relative(src, path).split("\\").join("/"))
    .sort();
  const known = new Set(files);
  const violations: string[] = [];
  const imports: [string, string][] = [];
  const lines = new Map<string, number>();
  for (const file of files) {
    const text = readFileSync(join(src, file), "utf8");
    lines.set(file, text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
    if (!rank.has(memberOf(file))) violations.push(`${file}: belongs to no layer (declare "${memberOf(file)}" in engine/scripts/check-layers.ts)`);
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = relative(src, resolve(dirname(join(src, file)), fileName.replace(/\.js$/, ".ts")))
        .split("\\")
        .join("/");
      if (!known.has(target)) {
        if (target.startsWith("..")) violations.push(`${file} imports ${fileName}, outside engine/src`);
        continue;
      }
      imports.push([file, target]);
    }
  }
  const backImports: [string, string][] = [];
  for (const [from, to] of imports) {
    const [a, b] = [memberOf(from), memberOf(to)];
    const [ra, rb] = [rank.get(a), rank.get(b)];
    if (a === b || ra === undefined || rb === undefined || rb < ra) continue;
    backImports.push([from, to]);
    violations.push(
      rb > ra
        ? `${from} imports ${to}: "${a}" is below "${b}" (a layer imports only from the layers below it)`
        : `${from} imports ${to}: "${a}" and "${b}" are peers and may not import each other`,
    );
  }
  const cycles = fileCycles(files, imports);
  for (const cycle of cycles) violations.push(`import cycle among ${cycle.join(", ")}`);
  return { files, imports, violations, backImports, cycles, lines };
}

/** The strongly connected components of more than one file (Tarjan): files that import each other, directly or not. */
function fileCycles(files: readonly string[], imports: readonly (readonly [string, string])[]): string[][] {
  const edges = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const [from, to] of imports) edges.get(from)?.push(to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top);
      component.push(top);
      if (top === file) break;
    }
    if (component.length > 1) components.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return components;
}

/** The layers with their lines, then the graph's figures: what engine/README.md and docs/design quote. */
export function describeLayers(report: LayerReport, layers: readonly Layer[] = LAYERS): string {
  const out = ["engine/src, bottom to top:"];
  for (const [index, layer] of layers.entries()) {
    const parts = layer.members.map((member) => {
      const files = report.files.filter((file) => memberOf(file) === member);
      const lines = files.reduce((sum, file) => sum + (report.lines.get(file) ?? 0), 0);
      return `${member} (${files.length} files, ${lines} lines)`;
    });
    out.push(`  ${String(index + 1).padStart(2)}. ${parts.join(", ")}: ${layer.role}`);
  }
  const across = report.imports.filter(([from, to]) => memberOf(from) !== memberOf(to)).length;
  const backPairs = new Set(report.backImports.map(([from, to]) => `${memberOf(from)} -> ${memberOf(to)}`));
  out.push(
    `${report.files.length} files; ${report.imports.length} imports, ${across} of them between layers; ` +
      `${report.backImports.length} back-imports${backPairs.size > 0 ? ` (${[...backPairs].join(", ")})` : ""}; ${report.cycles.length} import cycles`,
  );
  return out.join("\n");
}

function main(argv: readonly string[]): number {
  const option = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    return at === -1 ? undefined : argv[at + 1];
  };
  const src = resolve(option("--src") ?? join(dirname(fileURLToPath(import.meta.url)), "..", "src"));
  const layersFile = option("--layers");
  const layers = layersFile === undefined ? LAYERS : (JSON.parse(readFileSync(layersFile, "utf8")) as Layer[]);
  const report = checkLayers(src, layers);
  if (argv.includes("--report")) process.stdout.write(`${describeLayers(report, layers)}\n`);
  for (const violation of report.violations) process.stderr.write(`layers: ${violation}\n`);
  return report.violations.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
