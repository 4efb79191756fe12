/**
 * The validate command's reports of a template's checks: text for a person (the default), the
 * result as JSON, or SARIF 2.1.0 for code scanning in CI (each result located at its line in the
 * template file and by its JSON Pointer). spec/checks.md describes the findings.
 */
import type * as Sarif from "sarif";
import { ENGINE_VERSION } from "../base/version.js";
import type { Finding, Severity } from "../document/checks/index.js";
import { checkCodes } from "../engine/checks.js";
import type { ValidationResult } from "../engine/validate.js";
import { jsonLocator, jsonPointer, type TextRegion } from "./json-locations.js";

export const REPORT_FORMATS = ["text", "json", "sarif"] as const;

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function tally(findings: readonly Finding[]): string {
  const of = (severity: Severity) => findings.filter((f) => f.severity === severity).length;
  return [count(of("error"), "error"), count(of("warning"), "warning"), count(of("info"), "note")].join(", ");
}

export function textReport(file: string, text: string, result: ValidationResult, strict: boolean): string {
  const locate = jsonLocator(text);
  const at = (path: readonly string[]) => {
    const region = locate(path);
    return region === undefined ? file : `${file}:${region.startLine}:${region.startColumn}`;
  };
  const lines: string[] = [];
  for (const issue of result.issues) lines.push(`${at(issue.loc)}  invalid  ${issue.loc.join("/") || "(the template)"}: ${issue.msg} [${issue.type}]`);
  for (const f of result.findings) {
    lines.push(`${at(f.path)}  ${f.severity.padEnd(7)}  ${f.code}  ${f.path.join("/") || "(the whole email)"}${f.target ? ` [${f.target}]` : ""}`);
    lines.push(`    ${f.message}`);
    if (f.value !== "") lines.push(`    value: ${f.value}`);
    lines.push(`    fix: ${f.hint}`);
  }
  const verdict = !result.valid ? "invalid: it cannot be rendered" : result.passed ? "passes" : strict ? "fails (--strict: warnings fail too)" : "fails";
  const summary = `${file}: ${result.valid ? "valid" : count(result.issues.length, "issue")}; ${tally(result.findings)}; ${verdict}`;
  return `${[...lines, summary].join("\n")}\n`;
}

const LEVEL: Record<Severity, Sarif.Result.level> = { error: "error", warning: "warning", info: "note" };

/**
 * A file's URI as SARIF wants it: a relative path as it is, with forward slashes (code scanning
 * resolves it in the repository), an absolute one as a file: URI. No node:path here: the QuickJS
 * build has none.
 */
function artifactUri(file: string): string {
  const slashed = file.replace(/\\/g, "/");
  const absolute = slashed.startsWith("/") || /^[A-Za-z]:\//.test(slashed);
  if (!absolute) return slashed.split("/").map(encodeURIComponent).join("/");
  return `file://${slashed.startsWith("/") ? "" : "/"}${slashed
    .split("/")
    .map((part) => (/^[A-Za-z]:$/.test(part) ? part : encodeURIComponent(part)))
    .join("/")}`;
}

function location(file: string, path: readonly string[], region: TextRegion | undefined): Sarif.Location {
  const pointer = jsonPointer(path);
  return {
    physicalLocation: { artifactLocation: { uri: artifactUri(file) }, ...(region === undefined ? {} : { region }) },
    logicalLocations: [{ fullyQualifiedName: pointer === "" ? "/" : pointer, kind: "element" }],
  };
}

/**
 * SARIF 2.1.0: one run of mailrender-engine, a rule per code (from the catalogue), a result per
 * finding (and per issue of a template that cannot be rendered, rule `INVALID_TEMPLATE`), each at
 * its region in the file and its JSON Pointer (logical location and `properties.jsonPointer`).
 */
export function sarifReport(file: string, text: string, result: ValidationResult): Sarif.Log {
  const locate = jsonLocator(text);
  const codes = checkCodes();
  const used = [...new Set(result.findings.map((f) => f.code))];
  const rules: Sarif.ReportingDescriptor[] = used.map((code) => ({
    id: code,
    shortDescription: { text: codes[code]?.summary ?? code },
    help: { text: `spec/checks.md, ${code}, says what it means, with an example` },
    defaultConfiguration: { level: LEVEL[codes[code]?.severity ?? "warning"] },
  }));
  if (result.issues.length > 0)
    rules.push({
      id: "INVALID_TEMPLATE",
      shortDescription: { text: "The template cannot be rendered: a value the template schema refuses" },
      defaultConfiguration: { level: "error" },
    });
  const results: Sarif.Result[] = [
    ...result.issues.map(
      (issue): Sarif.Result => ({
        ruleId: "INVALID_TEMPLATE",
        level: "error",
        message: { text: `${issue.loc.join("/") || "The template"}: ${issue.msg}` },
        locations: [location(file, issue.loc, locate(issue.loc))],
        properties: { jsonPointer: jsonPointer(issue.loc), type: issue.type },
      }),
    ),
    ...result.findings.map(
      (f): Sarif.Result => ({
        ruleId: f.code,
        level: LEVEL[f.severity],
        message: { text: `${f.message}. ${f.hint}.`.replace(/\.\./g, ".") },
        locations: [location(file, f.path, locate(f.path))],
        properties: { jsonPointer: jsonPointer(f.path), value: f.value, hint: f.hint, ...(f.target ? { target: f.target } : {}) },
      }),
    ),
  ];
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{ tool: { driver: { name: "mailrender-engine", version: ENGINE_VERSION, rules } }, results }],
  };
}
