/**
 * What the reader warns about while it reads a template (document/parse.ts) as findings, with the
 * value, a severity by what the reader meets and a hint: an unsafe URL dropped, content HTML
 * removed, a row spacer without height, visibility rules that mean nothing or are spelled in a way
 * the Maildeno engine does not know. (Unknown block types are reported by the name checks, with
 * the nearest type.)
 */
import type { RenderWarning } from "../../base/diagnostics.js";
import { type Finding, finding, valueAt } from "./finding.js";

/** Why a scheme is refused, and what to write instead. */
function unsafeUrlHint(url: string): string {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "data") return "Host the image and give its https:// address: a data: image is dropped (Gmail and Outlook do not show them either)";
  if (scheme === "cid") return "Host the image and give its https:// address: this engine sends no attachments for cid: images to refer to";
  if (scheme === "javascript" || scheme === "vbscript") return "Email clients run no script: give it the https:// address it should open";
  return "Give it an http(s), mailto or tel address";
}

export function warningFindings(json: unknown, warnings: readonly RenderWarning[]): Finding[] {
  return warnings.flatMap((w): Finding[] => {
    const value = valueAt(json, w.path);
    switch (w.code) {
      case "UNSAFE_URL":
        return [
          finding(
            "error",
            w.code,
            w.path,
            value,
            `The address "${String(value)}" has a scheme email links and images may not use: it is dropped, and the link or image with it`,
            unsafeUrlHint(String(value)),
          ),
        ];
      case "UNSAFE_CONTENT":
        return [finding("warning", w.code, w.path, value, w.message, "Remove it from the content: email clients do not run or show it either")];
      case "EMPTY_ROW_SPACER":
        return [
          finding(
            "info",
            w.code,
            w.path,
            valueAt(json, [...w.path, "height"]),
            "The row spacer has no positive height: it is left out",
            "Give it a height in px, or remove it",
          ),
        ];
      case "MEANINGLESS_VISIBILITY_RULE":
        return [finding("warning", w.code, w.path, value, w.message, "Fill in the rule's context key and value, or remove it")];
      case "VISIBILITY_OPERATOR_ALIAS":
      case "VISIBILITY_SPELLING":
        return [finding("warning", w.code, w.path, value, w.message, "Write it as the message says, so that the Maildeno engine reads it the same")];
      default:
        return [];
    }
  });
}
