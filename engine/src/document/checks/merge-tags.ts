/**
 * Merge tags in every prop that holds them, as the editor description says (schema/editor.ts: text
 * with merge tags, rich text, link and image URLs, and the same in list entries), on blocks and on
 * the canvas, rows, columns and row spacers: written wrong (data/merge-tag-syntax.ts), a text tag
 * giving a whole link, and, with sample data, a tag the data has no value for or a link that the
 * data makes no URL.
 */
import type { DynamicData } from "../../base/types.js";
import type { BlockRegistry } from "../../blocks/registry.js";
import { isSafeWholeUrl, normalizeUrlValue } from "../../data/escape.js";
import { type MergeTagMistake, mergeTagMistakes, textTagAsUrl } from "../../data/merge-tag-syntax.js";
import { parseMergeTags } from "../../data/merge-tags.js";
import { lookupIn, resolveMergeTag } from "../../markup/substitute.js";
import { type EditorDescription, type Field, fieldsOf } from "../../schema/editor.js";
import { CANVAS_EDITOR, COLUMN_EDITOR, ROW_EDITOR, ROW_SPACER_EDITOR } from "../editor.js";
import { type Finding, finding } from "./finding.js";
import { type Json, walkDocument } from "./walk.js";

type Position = "text" | "url" | "content";

/** A URL attribute value inside content HTML (`href="…"`, `src='…'`), with where its value starts. */
const URL_ATTRIBUTE = /\b(?:href|src|background)\s*=\s*(["'])(.*?)\1/gis;

function urlAttributes(html: string): { value: string; start: number }[] {
  return [...html.matchAll(URL_ATTRIBUTE)].map((m) => ({ value: m[2]!, start: m.index + m[0].indexOf(m[1]!) + 1 }));
}

/** A mistake in a link or image address leaves it broken (an error); in text, it shows (a warning). */
function located(mistake: MergeTagMistake, path: readonly string[], inUrl: boolean): Finding {
  const severity = mistake.code === "MERGE_TAG_NOT_A_URL" ? "warning" : inUrl ? "error" : "warning";
  return finding(severity, mistake.code, path, mistake.text, mistake.message, mistake.hint);
}

function checkValue(value: unknown, position: Position, path: readonly string[], data: DynamicData | undefined, out: Finding[]): void {
  if (typeof value !== "string" || value === "") return;
  const urls = position === "url" ? [{ value, start: 0 }] : position === "content" ? urlAttributes(value) : [];
  const inUrl = (index: number) => urls.some(({ value: url, start }) => index >= start && index < start + url.length);
  for (const mistake of mergeTagMistakes(value)) out.push(located(mistake, path, position === "url" || inUrl(mistake.index)));
  for (const { value: url } of urls) {
    const mistake = textTagAsUrl(url);
    if (mistake) out.push(located(mistake, path, true));
  }
  if (data !== undefined) sampleDataFindings(value, position, urls, path, data, out);
}

/** With sample data: tags it has no value for (and that have no default), and links it makes into no URL. */
function sampleDataFindings(
  value: string,
  position: Position,
  urls: readonly { value: string }[],
  path: readonly string[],
  data: DynamicData,
  out: Finding[],
): void {
  const lookup = lookupIn(data);
  const reported = new Set<string>();
  for (const part of parseMergeTags(value)) {
    if (typeof part === "string" || part.fallback !== undefined || reported.has(part.source)) continue;
    if (resolveMergeTag(part, position === "url" ? "url" : "text", lookup) !== undefined) continue;
    reported.add(part.source);
    out.push(
      finding(
        "warning",
        "MERGE_TAG_NO_VALUE",
        path,
        part.source,
        `The sample data has no value for ${part.source}, and the tag has no default: it renders empty`,
        `Give it a value under merge_tags.${part.group ?? (position === "url" ? "url" : "text")}, or a default: {{ ${part.group ? `${part.group}.` : ""}${part.name}|'…' }}`,
      ),
    );
  }
  for (const { value: url } of urls) {
    const first = parseMergeTags(url.trimStart())[0];
    if (first === undefined || typeof first === "string") continue;
    const resolved = resolveMergeTag(first, "url", lookup) ?? first.fallback;
    if (resolved === undefined || resolved === "" || isSafeWholeUrl(normalizeUrlValue(resolved))) continue;
    out.push(
      finding(
        "error",
        "MERGE_TAG_VALUE_NOT_A_URL",
        path,
        first.source,
        `In the sample data, ${first.source} gives "${resolved}", which is not an http(s), mailto or tel address: the link goes nowhere`,
        "Give it a whole URL, such as https://example.com/account",
      ),
    );
  }
}

const POSITION: Partial<Record<Field["kind"], Position>> = { richText: "content", url: "url", imageUrl: "url" };

function positionOf(field: Field): Position | undefined {
  if (field.kind === "text") return field.mergeTags ? "text" : undefined;
  return POSITION[field.kind];
}

/** Every prop of `props` that holds merge tags, by its editor description (list entries included). */
function checkFields(description: EditorDescription, props: Json, path: readonly string[], data: DynamicData | undefined, out: Finding[]): void {
  for (const field of fieldsOf(description)) {
    const value = props[field.prop];
    if (field.kind === "entries") {
      if (!Array.isArray(value)) continue;
      value.forEach((entry: unknown, index) => {
        if (typeof entry !== "object" || entry === null) return;
        for (const item of field.fields) {
          const position = positionOf(item);
          if (position) checkValue((entry as Json)[item.prop], position, [...path, field.prop, String(index), item.prop], data, out);
        }
      });
      continue;
    }
    const position = positionOf(field);
    if (position) checkValue(value, position, [...path, field.prop], data, out);
  }
}

export function mergeTagFindings(json: unknown, registry: BlockRegistry, data?: DynamicData): Finding[] {
  const out: Finding[] = [];
  walkDocument(json, registry, {
    canvas: (raw, path) => checkFields(CANVAS_EDITOR, raw, path, data, out),
    row: (raw, path) => checkFields(ROW_EDITOR, raw, path, data, out),
    column: (raw, path) => checkFields(COLUMN_EDITOR, raw, path, data, out),
    rowSpacer: (raw, path) => checkFields(ROW_SPACER_EDITOR, raw, path, data, out),
    block: (raw, path, _type, definition) => {
      const props = raw["props"];
      if (definition && typeof props === "object" && props !== null && !Array.isArray(props))
        checkFields(definition.editor, props as Json, [...path, "props"], data, out);
    },
  });
  return out;
}
