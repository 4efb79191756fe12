/**
 * The template checks (spec/checks.md): the document's (document/checks/) and those of what each
 * target gives a reader's client, its size against Gmail's clipping; the mail-client checks are
 * apart (engine/client-support.ts), as they need an optional package and take seconds.
 */
import type { DynamicData, RenderTarget } from "../base/types.js";
import { BLOCKS, type BlockRegistry } from "../blocks/registry.js";
import { finding } from "../document/checks/finding.js";
import { type CheckCode, DOCUMENT_CODES, documentFindings, type Finding, sortFindings } from "../document/checks/index.js";
import type { Template } from "../document/model.js";
import type { ParseResult } from "../document/parse.js";
import { joinOutput, substitute } from "../markup/substitute.js";
import { compileMjmlToHtml } from "../mjml-to-html/index.js";
import { clientFindings } from "./client-support.js";
import { compileTarget, type EngineCore } from "./pipeline.js";

/** Gmail shows an email whose HTML is over 102 KB up to that point, with a "View entire message" link. */
export const GMAIL_CLIP_BYTES = 102 * 1024;
/** From here the size is worth a warning: merge values, tracking and an ESP's footer add to it. */
export const NEAR_CLIP_BYTES = 90 * 1024;

export const ENGINE_CODES: Readonly<Record<string, CheckCode>> = {
  EMAIL_SIZE_NEAR_CLIP: { severity: "warning", summary: "A target's HTML over 90 KB: close to where Gmail clips it" },
  EMAIL_SIZE_CLIPPED: { severity: "error", summary: "A target's HTML over 102 KB: Gmail clips it" },
  CLIENT_UNSUPPORTED: {
    severity: "warning",
    summary: "With mail-client checks: how a block, row or the email is drawn uses what a named client family does not support",
  },
};

const kb = (bytes: number) => `${Math.round(bytes / 102.4) / 10} KB`;

/**
 * The size of the HTML a reader's client gets for `target`, every conditional node shown: the html
 * itself; what the MJML compiles to (by mjml, not minified, as mjml writes it by default); for
 * react-email, whose component React Email renders in the user's process, the html target's size,
 * which the rendered component stayed under for every fixture (54–96% of it).
 */
function htmlBytes(core: EngineCore, template: Template, target: RenderTarget, data: DynamicData | undefined): number {
  const visible = template.conditions.map(() => true);
  const compiled = compileTarget(core, template, target === "react-email" ? "html" : target, true, visible);
  const output = joinOutput(compiled, substitute(compiled, data).values());
  return core.host.utf8Length(target === "mjml" ? compileMjmlToHtml(output, core.host) : output);
}

/** What the size is of, per target. */
const MEASURED: Record<RenderTarget, (size: string) => string> = {
  html: (size) => `The html is ${size}`,
  mjml: (size) => `Compiled by mjml, this MJML makes ${size} of HTML`,
  "react-email": (size) => `Rendered by React Email, this component makes up to ${size} of HTML (the size of this engine's html of it)`,
};

export function sizeFindings(core: EngineCore, template: Template, targets: readonly RenderTarget[], data: DynamicData | undefined): Finding[] {
  return targets.flatMap((target) => {
    const bytes = htmlBytes(core, template, target, data);
    if (bytes <= NEAR_CLIP_BYTES) return [];
    const clipped = bytes > GMAIL_CLIP_BYTES;
    return [
      finding(
        clipped ? "error" : "warning",
        clipped ? "EMAIL_SIZE_CLIPPED" : "EMAIL_SIZE_NEAR_CLIP",
        [],
        kb(bytes),
        clipped
          ? `${MEASURED[target](kb(bytes))}: Gmail clips an email over 102 KB, hiding the rest (and an open-tracking pixel) behind "View entire message"`
          : `${MEASURED[target](kb(bytes))}, close to the 102 KB where Gmail clips an email; merge values and an ESP's additions come on top`,
        "Shorten it: fewer rows or shorter content; images count only by their address, but data: and long tracking URLs add up",
        target,
      ),
    ];
  });
}

export interface CheckOptions {
  /** Sample recipient data: tags without a value in it are reported, and the size includes its values. */
  readonly dynamicData?: DynamicData | undefined;
  /** The targets whose output size is checked (default: all three); `[]` renders nothing. */
  readonly targets?: readonly RenderTarget[] | undefined;
  /**
   * Mail-client families whose support to check (engine/client-support.ts: `gmail`, `outlook`,
   * `apple-mail`, …); needs Node.js and the doiuse-email package, and takes seconds for a long email.
   */
  readonly clients?: readonly string[] | undefined;
}

/** Every finding of the template checks for a read template, in document order. */
export function templateFindings(core: EngineCore, json: unknown, parsed: ParseResult, options: CheckOptions = {}): Finding[] {
  const findings = documentFindings(json, parsed, core.registry, options.dynamicData);
  if (parsed.template !== undefined) {
    findings.push(...sizeFindings(core, parsed.template, options.targets ?? ["html", "react-email", "mjml"], options.dynamicData));
    if (options.clients !== undefined) findings.push(...clientFindings(core, json, options.clients));
  }
  return sortFindings(findings);
}

/** Every code the checks give, with its meaning: the document's, each block's, and the targets'. */
export function checkCodes(registry: BlockRegistry = BLOCKS): Record<string, CheckCode> {
  const codes: Record<string, CheckCode> = { ...DOCUMENT_CODES, ...ENGINE_CODES };
  for (const block of Object.values(registry)) Object.assign(codes, block.codes);
  return codes;
}
