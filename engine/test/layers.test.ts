/**
 * engine/src's folders are layers (engine/scripts/check-layers.ts, run by `make lint`): the real tree
 * passes, and a back-import, an import between peers, an import cycle or a file outside every layer
 * each fail the check by name. And the engine's code uses no Node global or module except in Node's
 * host and the Node executable's entry: the QuickJS runtime passes a host of its own.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { checkLayers } from "../scripts/check-layers.js";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "src");

describe("engine/src layers", () => {
  it("has no back-import and no import cycle", () => {
    const report = checkLayers(SRC);
    expect(report.violations).toEqual([]);
    expect(report.imports.length).toBeGreaterThan(200);
  });

  describe("a tree that breaks them", () => {
    let dir = "";
    const tree = (files: Record<string, string>): string => {
      dir = mkdtempSync(join(tmpdir(), "layers-"));
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      return dir;
    };
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("fails on an import from a lower layer up to a higher one, type-only included", () => {
      const src = tree({
        "schema/colors.ts": 'import type { Block } from "../blocks/block.js";\nexport const c = 1;\n',
        "blocks/block.ts": 'import { c } from "../schema/colors.js";\nexport type Block = typeof c;\n',
      });
      const { violations } = checkLayers(src);
      expect(violations).toContainEqual(expect.stringMatching(/^schema\/colors\.ts imports blocks\/block\.ts: "schema" is below "blocks"/));
      expect(violations).toContainEqual("import cycle among blocks/block.ts, schema/colors.ts");
    });

    it("fails on an import between peers and on a file in no layer", () => {
      const src = tree({
        "text/plain-text.ts": 'export type { Shown } from "../targets/context.js";\n',
        "targets/context.ts": "export type Shown = () => boolean;\n",
        "helpers/x.ts": "export {};\n",
      });
      const { violations } = checkLayers(src);
      expect(violations).toContainEqual(expect.stringMatching(/"text" and "targets" are peers/));
      expect(violations).toContainEqual(expect.stringMatching(/^helpers\/x\.ts: belongs to no layer/));
    });

    it("fails on a cycle inside one folder, through an import() type", () => {
      const src = tree({
        "targets/a.ts": 'export type A = import("./b.js").B;\n',
        "targets/b.ts": 'import type { A } from "./a.js";\nexport type B = A | 1;\n',
      });
      expect(checkLayers(src).violations).toEqual(["import cycle among targets/a.ts, targets/b.ts"]);
    });
  });
});

/** Node's globals and modules a file uses: identifiers `process`, `Buffer`, `NodeJS`, `require`, and `node:` imports. */
function nodeUses(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const uses: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && ["process", "Buffer", "NodeJS", "require"].includes(node.text)) uses.push(node.text);
    if (ts.isStringLiteral(node) && node.text.startsWith("node:") && (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent)))
      uses.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) =>
    statSync(join(dir, entry)).isDirectory() ? sourceFiles(join(dir, entry)) : entry.endsWith(".ts") ? [join(dir, entry)] : [],
  );

describe("Node in engine/src", () => {
  // Node's host (its WebAssembly passes included) and the Node executable's entry.
  const ALLOWED = new Set(["engine/node-host.ts", "engine/wasm-markup-passes.ts", "cli.ts"]);

  it("is used by Node's host and the Node executable's entry only", () => {
    const used = sourceFiles(SRC)
      .map(
        (path) =>
          [
            path
              .slice(SRC.length + 1)
              .split("\\")
              .join("/"),
            nodeUses(path),
          ] as const,
      )
      .filter(([file, uses]) => uses.length > 0 && !ALLOWED.has(file));
    expect(used).toEqual([]);
  });

  it("is found where it is used", () => {
    expect(nodeUses(join(SRC, "cli.ts"))).toEqual(expect.arrayContaining(["node:fs", "process"]));
    expect(nodeUses(join(SRC, "engine", "node-host.ts"))).toEqual(expect.arrayContaining(["process", "Buffer"]));
  });
});
