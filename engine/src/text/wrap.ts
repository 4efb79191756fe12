/**
 * Word wrapping for plain text: words are never split, so a long URL keeps a line of its own; a run
 * of spaces inside a line (between a table row's cells) is kept.
 */
import type { TextParagraph } from "../markup/html-to-text.js";

export function wrapParagraph(paragraph: TextParagraph, width: number): string {
  const lines: string[] = [];
  let prefix = paragraph.first;
  for (const hardLine of paragraph.text.split("\n")) {
    let line = "";
    for (const word of hardLine.trim().split(/ (?=\S)/)) {
      if (word === "") continue;
      if (line !== "" && prefix.length + line.length + 1 + word.length > width) {
        lines.push((prefix + line).trimEnd());
        prefix = paragraph.rest;
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    lines.push((prefix + line).trimEnd());
    prefix = paragraph.rest;
  }
  return lines.join("\n");
}
