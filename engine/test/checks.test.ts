/**
 * The template checks (spec/checks.md): the corpus of authoring mistakes in fixtures/checks/ gives
 * exactly its recorded findings; every code the checks can give has a case that gives it; and the
 * good templates — every render fixture, each in the Maildeno editor's two forms, and the server's
 * starter templates — stay valid without an error finding, except the render fixtures that hold a
 * mistake on purpose (listed, each with the reason).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checksDoc } from "../scripts/checks-doc.js";
import { listCases, readExpectedFindings, recordedFinding } from "../scripts/fixture-cases.js";
import { checkCodes } from "../src/engine/checks.js";
import { type Finding, validateTemplate } from "../src/index.js";
import { toExport, toHydrated } from "./support/editor-form.js";

const checkCases = listCases("checks");
const renderCases = listCases("render");

/** Render fixtures whose template holds a mistake on purpose: the error codes each must give, and why. */
const DELIBERATE_MISTAKES: Record<string, { codes: readonly string[]; why: string }> = {
  "block-all-defaults": {
    codes: ["IMAGE_SOURCE_MISSING", "VIDEO_LINK_MISSING", "BUTTON_LINK_MISSING", "LINK_URL_MISSING"],
    why: "every block with nothing set: an image without source, a video, button and link going nowhere",
  },
  "block-unknown-type": { codes: ["UNKNOWN_BLOCK_TYPE"], why: "block types this engine does not know, left out on purpose" },
  "editor-links-and-merge-spans": { codes: ["UNSAFE_URL"], why: "javascript:, vbscript: and data: addresses, dropped on purpose" },
};

const errors = (findings: readonly Finding[]) => [...new Set(findings.filter((f) => f.severity === "error").map((f) => f.code))].sort();

describe("the corpus of authoring mistakes (fixtures/checks/)", () => {
  it("has a case for every code the checks give, and no case without a finding but the one that proves silence", () => {
    const found = new Set(checkCases.flatMap((c) => readExpectedFindings(c).map((f) => f.code)));
    expect(Object.keys(checkCodes()).filter((code) => !found.has(code))).toEqual([]);
    expect(checkCases.filter((c) => readExpectedFindings(c).length === 0).map((c) => c.name)).toEqual(["editor-only-keys-are-silent"]);
  });

  it.each(checkCases.map((c) => [c.name, c] as const))("%s gives its recorded findings", (_name, fixture) => {
    const result = validateTemplate(fixture.template, { dynamicData: fixture.sampleData, clients: fixture.clients });
    expect(result.valid).toBe(true);
    expect(result.findings.map(recordedFinding)).toEqual(readExpectedFindings(fixture));
    for (const f of result.findings) {
      expect(f.message.length, f.code).toBeGreaterThan(10);
      expect(f.hint.length, f.code).toBeGreaterThan(5);
      expect(f.value.length, f.code).toBeLessThanOrEqual(80);
      // A block's, row's or column's finding points at it, never at the whole document.
      if (!f.code.startsWith("EMAIL_SIZE")) expect(f.path.length, f.code).toBeGreaterThan(0);
    }
  });

  it("gives each code at the severity its catalogue says (a merge-tag mistake is an error in a link or image address)", () => {
    const codes = checkCodes();
    for (const fixture of [...checkCases, ...renderCases]) {
      for (const f of validateTemplate(fixture.template, { dynamicData: fixture.sampleData, clients: fixture.clients }).findings) {
        const info = codes[f.code];
        expect(info, `${fixture.name}: ${f.code} is not in the catalogue`).toBeDefined();
        expect([info?.severity, info?.inUrl]).toContain(f.severity);
      }
    }
  });
});

describe("good templates stay valid and pass", () => {
  it.each(renderCases.map((c) => [c.name, c] as const))("render/%s, as written and in the editor's two forms", (name, fixture) => {
    const expected = DELIBERATE_MISTAKES[name]?.codes ?? [];
    for (const template of [fixture.template, toHydrated(fixture.template as Record<string, unknown>), toExport(fixture.template as Record<string, unknown>)]) {
      const result = validateTemplate(template);
      expect(result.valid).toBe(true);
      expect(errors(result.findings)).toEqual([...expected].sort());
    }
  });

  it("the server's starter templates", () => {
    const dir = join(import.meta.dirname, "../../server/demo");
    for (const file of readdirSync(dir)) {
      const result = validateTemplate(JSON.parse(readFileSync(join(dir, file), "utf8")));
      expect(result.valid, file).toBe(true);
      expect(
        result.findings.filter((f) => f.severity !== "info"),
        file,
      ).toEqual([]);
      expect(result.passed, file).toBe(true);
    }
  });
});

describe("spec/checks.md", () => {
  it("is what the list of codes and the corpus generate (make spec)", () => {
    expect(readFileSync(join(import.meta.dirname, "../../spec/checks.md"), "utf8")).toBe(checksDoc());
  });
});

describe("validateTemplate's options", () => {
  const withTypo = checkCases.find((c) => c.name === "unknown-props-on-blocks")!.template;

  it("passed: false for an error, and with strict for a warning", () => {
    const noLink = checkCases.find((c) => c.name === "button-without-label-or-link")!.template;
    expect(validateTemplate(noLink).passed).toBe(false);
    expect(validateTemplate(withTypo).passed).toBe(true);
    expect(validateTemplate(withTypo, { strict: true }).passed).toBe(false);
  });

  it("still takes the limits alone, as before it took options", () => {
    const result = validateTemplate(withTypo, { maxNodes: 2 });
    expect(result.valid).toBe(false);
    expect(result.issues[0]?.type).toBe("too_many_nodes");
  });

  it("targets: [] checks no output size; one target checks only its own", () => {
    const big = checkCases.find((c) => c.name === "email-size-clipped")!.template;
    expect(validateTemplate(big, { targets: [] }).findings).toEqual([]);
    expect(validateTemplate(big, { targets: ["mjml"] }).findings.map((f) => f.target)).toEqual(["mjml"]);
  });
});
