/**
 * What a reader must find in a fixture's rendered page, computed outside the browser: the visible
 * text and links of the golden html, and for each multi-column row, one text per column to locate it.
 */
import { Parser } from "htmlparser2";
import type { FixtureCase } from "../scripts/fixture-cases.js";
import { sideOf } from "../src/blocks/shared.js";
import { isVisible, normalizeContext } from "../src/data/visibility.js";
import type { ColumnChild, ColumnNode, ComponentNode, RowNode } from "../src/document/model.js";
import { parseTemplate } from "../src/document/parse.js";
import { Emitter } from "../src/markup/emitter.js";
import type { Direction, TextAlign } from "../src/schema/common.js";
import { fieldsOf } from "../src/schema/editor.js";
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
  /** The width at or under which a stacking row stacks (the mobile breakpoint). */
  readonly breakpoint: number;
  /** Its first column on the right (a right-to-left email). */
  readonly mirrored: boolean;
  /** One text per column that has one, in column order (compacted, at most 24 characters). */
  readonly markers: string[];
}

/** A fixture's template as a reader of it sees it: its visible nodes, and each block's first text. */
function readerView(fixture: FixtureCase) {
  const { template } = parseTemplate(fixture.template);
  if (!template) return undefined;
  const context = normalizeContext(fixture.dynamicData.context);
  const visible = template.conditions.map((condition) => isVisible(condition.rules, context));
  const shown = (node: { readonly condition: { readonly slot: number } | undefined }) => !node.condition || visible[node.condition.slot] === true;
  const doc = new DocumentContext(template, new Emitter("markup"), shown);
  /** Its texts on every screen (compacted); none when hidden on a screen or holding a recipient's value. */
  const texts = (block: ComponentNode): string[] => {
    if (!shown(block)) return [];
    const props = block.props as { desktopHide?: boolean; mobileHide?: boolean };
    if (props.desktopHide || props.mobileHide) return [];
    const html = doc.block(block, 300, "html");
    if (html.includes("\uE000")) return []; // a merge tag: its value is the recipient's
    return desktopContent(html).texts;
  };
  return { template, shown, texts };
}

/** The top-level rows with two or more columns that show text on every screen. */
export function multiColumnRows(fixture: FixtureCase): RowColumns[] {
  const view = readerView(fixture);
  if (!view) return [];
  const { template, shown, texts } = view;
  const marker = (column: ColumnNode): string | undefined => {
    for (const child of column.children) {
      const text = child.kind === "component" ? texts(child).join("") : "";
      if (text !== "") return text.slice(0, 24);
    }
    return undefined;
  };
  const { canvas } = template;
  return template.rows
    .filter((row): row is RowNode => row.kind === "row" && shown(row))
    .map((row) => ({ row: row.id, mobileStack: row.style.mobileStack, columns: row.columns.filter(shown) }))
    .filter((row) => row.columns.length >= 2)
    .map((row) => ({
      row: row.row,
      mobileStack: row.mobileStack,
      breakpoint: canvas.mobileBreakpoint,
      mirrored: canvas.direction === "rtl",
      markers: row.columns.map(marker).filter((m): m is string => m !== undefined),
    }))
    .filter((row) => row.markers.length >= 2);
}

/** A text block as a reader must see it: the direction its text runs in, and the side it is aligned to. */
export interface TextBlockLook {
  /** Its path in the template. */
  readonly block: string;
  /** Its first text node's text (compacted, at most 24 characters), to find it by. */
  readonly marker: string;
  readonly direction: "ltr" | "rtl";
  /** For a block aligned as text (`start`…`end`); undefined for one placed otherwise (a button). */
  readonly align: string | undefined;
}

const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;
const LTR_LETTER = /[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]/u;

/** `auto`'s direction: that of the first letter that has one (HTML's `dir=auto`). */
function directionOfText(text: string): "ltr" | "rtl" {
  for (const char of text) {
    if (RTL_LETTER.test(char)) return "rtl";
    if (LTR_LETTER.test(char)) return "ltr";
  }
  return "ltr";
}

/**
 * Every shown block with text, in document order, with the direction and alignment it must be seen
 * with — in a fixture that sets a direction (on the canvas or a block); elsewhere all is left to right.
 */
export function textBlockLooks(fixture: FixtureCase): TextBlockLook[] {
  const view = readerView(fixture);
  if (!view) return [];
  const { template, shown, texts } = view;
  const blocks: ComponentNode[] = [];
  const walk = (children: readonly ColumnChild[]) => {
    for (const child of children) {
      if (!shown(child)) continue;
      if (child.kind === "component") blocks.push(child);
      else if (child.kind === "row") for (const column of child.columns.filter(shown)) walk(column.children);
    }
  };
  for (const row of template.rows) if (row.kind === "row" && shown(row)) for (const column of row.columns.filter(shown)) walk(column.children);
  const ownDirection = (block: ComponentNode) => (block.props as { direction?: Direction }).direction;
  if (template.canvas.direction === "ltr" && blocks.every((block) => ownDirection(block) === undefined)) return [];
  return blocks.flatMap((block) => {
    // Its first text node's text: what the page is searched for.
    const marker = texts(block)[0]?.slice(0, 24);
    if (marker === undefined) return [];
    const own = ownDirection(block) ?? template.canvas.direction;
    const direction = own === "auto" ? directionOfText(marker) : own;
    // Aligned as text: its editor offers `start` (schema/editor.ts, `field.textAlign`).
    const alignField = fieldsOf(block.definition.editor).find((field) => field.prop === "align");
    const textAligned = alignField?.kind === "enum" && alignField.options.some((option) => option.value === "start");
    const align = textAligned ? sideOf((block.props as { align: TextAlign }).align, direction) : undefined;
    return [{ block: block.path.join("."), marker, direction, align }];
  });
}
