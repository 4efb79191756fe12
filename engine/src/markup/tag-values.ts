/** Merge tags in a template string resolved for text that is not markup: the plain-text version of an email. */
import { encodeUrlPart, isSafeWholeUrl, normalizeUrlValue } from "../data/escape.js";
import { parseMergeTags } from "../data/merge-tags.js";
import { type Lookup, resolveMergeTag } from "./substitute.js";

/** Resolves merge tags in a template string: raw values, defaults for missing ones. */
export interface TagValues {
  text(value: string): string;
  /** A URL: a tag at its start gives the whole URL; an unsafe or empty result is "". */
  url(value: string): string;
}

/**
 * `spend` is told the length of every value that goes in (UTF-16 code units), and may throw to stop
 * the render: what bounds the plain text of a tag written many times with a long value.
 */
export function tagValues(lookup: Lookup, spend: (units: number) => void = () => {}): TagValues {
  const fill = (value: string, position: "text" | "url"): string => {
    let out = "";
    let sawLiteral = false;
    for (const part of parseMergeTags(value)) {
      if (typeof part === "string") {
        out += part;
        if (part.trim() !== "") sawLiteral = true;
        continue;
      }
      const raw = resolveMergeTag(part, position === "url" && sawLiteral ? "url-part" : position, lookup) ?? part.fallback ?? "";
      spend(raw.length);
      out += position === "url" && sawLiteral ? encodeUrlPart(raw) : raw;
      sawLiteral = true;
    }
    return out;
  };
  return {
    text: (value) => fill(value, "text"),
    url: (value) => {
      const url = normalizeUrlValue(fill(value, "url"));
      return isSafeWholeUrl(url) ? url : "";
    },
  };
}
