/**
 * What a reader must find in a fixture's rendered page, computed outside the browser: the visible
 * text and links of the golden html, and for each multi-column row, one text per column to locate it.
 */
import { Parser } from "htmlparser2";
import type { FixtureCase } from "../scripts/fixture-cases.js";
import { isVisible, normalizeContext } from "../src/data/visibility.js";
import type { ColumnNode, RowNode } from "../src/document/model.js";
import { parseTemplate } from "../src/document/parse.js";
import { Emitter } from "../src/markup/emitter.js";
import { DocumentContext } from "../src/targets/context.js";
import { HIDE_ON_DESKTOP } from "../src/targets/responsive.js";

const SKIPPED = new Set(["head", "style", "script", "title"]);
const VOID = new Set(["br", "img", "meta", "link", "hr", "input", "col", "area", "base", "wbr", "source"]);
const INVISIBLE = /[\u034f\u200a-\u200f\u2028\u2029\ufeff\u00ad]/g;

/** Text as compared: no whitespace or invisible characters, so that node splits and wrapping do not matter. */
export function compact(text: string): string {
  return text.replace(INVISIBLE, "").replace(/\s+/g, "");
}

/** Text chunks and link targets a desktop reader sees (outside display:none and desktop-hidden blocks). */
export function desktopContent(html: string): { texts: string[]; links: string[] } {
  const hidden: boolean[] = [];
  const texts: string[] = [];
  const links: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const style = (attribs["style"] ?? "").replace(/\s+/g, "").toLowerCase();
        const classes = (attribs["class"] ?? "").split(/\s+/);
        const hide = SKIPPED.has(name) || style.includes("display:none") || classes.includes(HIDE_ON_DESKTOP) || (hidden.at(-1) ?? false);
        if (!hide && name === "a" && attribs["href"] !== undefined) links.push(attribs["href"]);
        if (!VOID.has(name)) hidden.push(hide);
      },
      onclosetag(name) {
        if (!VOID.has(name)) hidden.pop();
      },
      ontext(data) {
        const text = compact(data.replace(/\u00a0/g, " "));
        if (!(hidden.at(-1) ?? false) && text !== "") texts.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return { texts, links };
}

export interface RowColumns {
  readonly row: string;
  readonly mobileStack: boolean;
  /** One text per column that has one, in column order (compacted, at most 24 characters). */
  readonly markers: string[];
}

/** The top-level rows with two or more columns that show text on every screen. */
export function multiColumnRows(fixture: FixtureCase): RowColumns[] {
  const { template } = parseTemplate(fixture.template);
  if (!template) return [];
  const context = normalizeContext(fixture.dynamicData.context);
  const visible = template.conditions.map((condition) => isVisible(condition.rules, context));
  const shown = (node: { readonly condition: { readonly slot: number } | undefined }) => !node.condition || visible[node.condition.slot] === true;
  const doc = new DocumentContext(template, new Emitter("markup"), shown);
  const marker = (column: ColumnNode): string | undefined => {
    for (const child of column.children) {
      if (child.kind !== "component" || !shown(child)) continue;
      const props = child.props as { desktopHide?: boolean; mobileHide?: boolean };
      if (props.desktopHide || props.mobileHide) continue;
      const html = doc.block(child, 300, "html");
      if (html.includes("\uE000")) continue; // a merge tag: its value is the recipient's
      const text = desktopContent(html).texts.join("");
      if (text !== "") return text.slice(0, 24);
    }
    return undefined;
  };
  return template.rows
    .filter((row): row is RowNode => row.kind === "row" && shown(row))
    .map((row) => ({ row: row.id, mobileStack: row.style.mobileStack, columns: row.columns.filter(shown) }))
    .filter((row) => row.columns.length >= 2)
    .map((row) => ({ row: row.row, mobileStack: row.mobileStack, markers: row.columns.map(marker).filter((m): m is string => m !== undefined) }))
    .filter((row) => row.markers.length >= 2);
}
