/**
 * The checks of a template document (spec/checks.md): its names and merge tags as written (valid
 * or not), and, once it reads, its blocks' own checks, its structure, what its readers meet and the
 * reader's warnings. The engine adds the checks of each target's output (engine/checks.ts).
 */
import type { DynamicData } from "../../base/types.js";
import type { BlockRegistry } from "../../blocks/registry.js";
import type { ParseResult } from "../parse.js";
import { blockFindings } from "./blocks.js";
import type { Finding } from "./finding.js";
import { mergeTagFindings } from "./merge-tags.js";
import { nameFindings } from "./names.js";
import { readerFindings } from "./readers.js";
import { structureFindings } from "./structure.js";
import { warningFindings } from "./warnings.js";

export { type CheckCode, DOCUMENT_CODES } from "./codes.js";
export { type Finding, type Severity, sortFindings } from "./finding.js";

export function documentFindings(json: unknown, parsed: ParseResult, registry: BlockRegistry, data?: DynamicData): Finding[] {
  const findings = [...nameFindings(json, registry), ...mergeTagFindings(json, registry, data)];
  const { template } = parsed;
  if (template === undefined) return findings;
  // A dropped unsafe URL leaves its prop empty: the block's own "no link" or "no source" is the same mistake.
  const dropped = new Set(parsed.warnings.filter((w) => w.code === "UNSAFE_URL").map((w) => w.path.join("/")));
  return [
    ...findings,
    ...warningFindings(json, parsed.warnings),
    ...blockFindings(template).filter((f) => !dropped.has(f.path.join("/"))),
    ...structureFindings(json, template, registry),
    ...readerFindings(json, template),
  ];
}
