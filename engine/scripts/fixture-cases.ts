/**
 * Reads the shared golden fixtures (fixtures/README.md is the contract). Used by the engine's tests,
 * by `make fixtures` and by the fixture lint; other languages read the same files with their own
 * few lines of code.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DynamicData, RENDER_TARGETS, type RenderTarget } from "../src/index.js";

export const FIXTURES_DIR = fileURLToPath(new URL("../../fixtures", import.meta.url));

export const EXTENSION: Record<RenderTarget, string> = { html: "html", mjml: "mjml", "react-email": "tsx" };

export interface FixtureCase {
  readonly name: string;
  readonly dir: string;
  readonly description: string;
  readonly template: unknown;
  readonly dynamicData: DynamicData;
  /** `dynamic_data` as the case gives it (checks/ cases: their sample data), or undefined. */
  readonly sampleData: DynamicData | undefined;
  readonly minify: boolean;
  readonly strict: boolean;
  /** checks/ cases only: the mail-client families whose support is checked. */
  readonly clients: readonly string[] | undefined;
  /** errors/ cases only. */
  readonly target: RenderTarget | undefined;
}

interface CaseFile {
  description?: unknown;
  template?: unknown;
  dynamic_data?: DynamicData;
  options?: { minify?: boolean; strict?: boolean; clients?: string[] };
  target?: RenderTarget;
}

export function listCases(kind: "render" | "errors" | "checks"): FixtureCase[] {
  const root = join(FIXTURES_DIR, kind);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const dir = join(root, name);
      const file = JSON.parse(readFileSync(join(dir, "case.json"), "utf8")) as CaseFile;
      return {
        name,
        dir,
        description: String(file.description ?? ""),
        template: file.template,
        dynamicData: file.dynamic_data ?? {},
        sampleData: file.dynamic_data,
        minify: file.options?.minify ?? true,
        strict: file.options?.strict ?? false,
        clients: file.options?.clients,
        target: file.target,
      };
    });
}

export function expectedPath(fixture: FixtureCase, target: RenderTarget): string {
  return join(fixture.dir, `expected.${EXTENSION[target]}`);
}

/** The plain-text golden: the same for every target. */
export function expectedTextPath(fixture: FixtureCase): string {
  return join(fixture.dir, "expected.txt");
}

export function readExpectedText(fixture: FixtureCase): string {
  return readFileSync(expectedTextPath(fixture), "utf8");
}

export function readExpected(fixture: FixtureCase, target: RenderTarget): string {
  return readFileSync(expectedPath(fixture, target), "utf8");
}

export interface ExpectedWarning {
  readonly code: string;
  readonly path: readonly string[];
}

export function readExpectedWarnings(fixture: FixtureCase): Record<RenderTarget, ExpectedWarning[]> {
  return JSON.parse(readFileSync(join(fixture.dir, "expected.warnings.json"), "utf8")) as Record<RenderTarget, ExpectedWarning[]>;
}

export interface ExpectedError {
  readonly code: string;
  readonly message: string;
  readonly issues: ReadonlyArray<{ loc: readonly string[]; msg: string; type: string }>;
}

export function readExpectedError(fixture: FixtureCase): ExpectedError {
  return JSON.parse(readFileSync(join(fixture.dir, "expected.error.json"), "utf8")) as ExpectedError;
}

/** A finding a checks/ case expects: its code, severity and path (and target, for a target's output). */
export interface ExpectedFinding {
  readonly severity: string;
  readonly code: string;
  readonly path: readonly string[];
  readonly target?: RenderTarget;
}

export function expectedFindingsPath(fixture: FixtureCase): string {
  return join(fixture.dir, "expected.findings.json");
}

export function readExpectedFindings(fixture: FixtureCase): ExpectedFinding[] {
  return JSON.parse(readFileSync(expectedFindingsPath(fixture), "utf8")) as ExpectedFinding[];
}

/** A finding as a checks/ case records it. */
export function recordedFinding(f: ExpectedFinding): ExpectedFinding {
  return { severity: f.severity, code: f.code, path: f.path, ...(f.target === undefined ? {} : { target: f.target }) };
}

export { RENDER_TARGETS };
