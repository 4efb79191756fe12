/**
 * The engine's own minifier, identical for every client (mjml's would need cssnano and differs by
 * version). Comments are never removed: Outlook's conditional comments live in them.
 *
 * html and mjml: inside <style>, <script>, <mj-style> and comments, lines are trimmed and blank
 * lines dropped; <pre> and <textarea> are left alone; elsewhere whitespace between tags that holds
 * a line break is removed, other line breaks become a space, and runs of spaces/tabs collapse to one.
 * A single space between two inline elements on one line is kept, so `<b>a</b> <i>b</i>` keeps its
 * word gap. react-email: lines trimmed, 3+ newlines collapse to one blank line, the whole trimmed.
 */

const PROTECTED = /<!--[\s\S]*?-->|<(style|script|mj-style|pre|textarea)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const PLACEHOLDER = /<\uE002(\d+)>/g;

function tidyLines(block: string): string {
  return block
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n");
}

export function minifyMarkup(source: string): string {
  const kept: string[] = [];
  const masked = source.replace(PROTECTED, (block: string, tag: string | undefined) => {
    const lower = tag?.toLowerCase();
    kept.push(lower === "pre" || lower === "textarea" ? block : tidyLines(block));
    return `<\uE002${kept.length - 1}>`;
  });
  const minified = masked
    .replace(/>[ \t\r]*\n\s*</g, "><")
    .replace(/[ \t\r]*\n\s*/g, " ")
    .replace(/(<[A-Za-z][^<>]*?)\s+(\/?>)/g, "$1$2")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
  return minified.replace(PLACEHOLDER, (_, index: string) => kept[Number(index)] ?? "");
}

export function minifyJsx(source: string): string {
  return source
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
