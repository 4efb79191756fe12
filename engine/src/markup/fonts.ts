/** Font stacks: web-safe families are used as they are; any other is loaded from Google Fonts. */

import { TextCache } from "../base/caches.js";

const WEB_SAFE: Record<string, "sans-serif" | "serif" | "monospace" | "cursive"> = {
  arial: "sans-serif",
  "arial black": "sans-serif",
  "comic sans ms": "cursive",
  "courier new": "monospace",
  georgia: "serif",
  helvetica: "sans-serif",
  impact: "sans-serif",
  "lucida console": "monospace",
  "lucida sans unicode": "sans-serif",
  "palatino linotype": "serif",
  tahoma: "sans-serif",
  "times new roman": "serif",
  "trebuchet ms": "sans-serif",
  verdana: "sans-serif",
};

function unquote(name: string): string {
  // Without a quote the regex has nothing to remove (a regex run costs QuickJS ~1,000 instructions).
  if (!name.includes("'") && !name.includes('"')) return name.trim();
  return name
    .trim()
    .replace(/^['"]|['"]$/g, "")
    .trim();
}

function quote(name: string): string {
  return /\s/.test(name) ? `'${name}'` : name;
}

/** The family a stack starts with, unquoted. */
export function primaryFamily(fontFamily: string): string {
  return unquote(fontFamily.split(",")[0] ?? "");
}

export function isWebSafe(family: string): boolean {
  return unquote(family).toLowerCase() in WEB_SAFE;
}

/**
 * Stacks by the family as written (src/base/caches.ts). A template names a few families, for most
 * of its blocks, and making a stack costs QuickJS ~10 K instructions (a regex run, case folds).
 */
const stacks = new TextCache<string>(256, 16 * 1024);

/** `'Times New Roman', Times, serif`-style stack ending in a web-safe fallback. */
export function fontStack(fontFamily: string): string {
  let stack = stacks.get(fontFamily);
  if (stack === undefined) {
    stack = stackOf(fontFamily);
    stacks.set(fontFamily, stack);
  }
  return stack;
}

function stackOf(fontFamily: string): string {
  if (fontFamily.includes(",")) return fontFamily; // an explicit stack is the author's choice
  const family = unquote(fontFamily);
  const generic = WEB_SAFE[family.toLowerCase()];
  if (generic) return family.toLowerCase() === "arial" ? "Arial, Helvetica, sans-serif" : `${quote(family)}, ${generic}`;
  return `${quote(family)}, Arial, Helvetica, sans-serif`;
}

/** One Google Fonts link for every non-web-safe family the template uses, in first-use order. */
export function googleFontsHref(families: Iterable<string>): string | undefined {
  const names = [...new Set([...families].map(primaryFamily).filter((f) => f && !isWebSafe(f)))];
  if (names.length === 0) return undefined;
  const query = names.map((name) => `family=${name.replace(/ /g, "+")}:wght@400;700`).join("&");
  return `https://fonts.googleapis.com/css2?${query}&display=swap`;
}
