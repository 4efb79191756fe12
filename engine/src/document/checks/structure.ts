/**
 * Structure that renders empty or broken: a row without columns, column widths that do not fill
 * the row (or overfill it, or leave a column without room), two nodes with the same id, and
 * elements content HTML opens without closing.
 */
import type { BlockRegistry } from "../../blocks/registry.js";
import { unclosedElements } from "../../markup/unclosed-tags.js";
import { fieldsOf } from "../../schema/editor.js";
import type { ColumnChild, RowLike, RowNode, Template } from "../model.js";
import { blocksOf } from "./blocks.js";
import { type Finding, finding } from "./finding.js";
import { walkDocument } from "./walk.js";

/** Widths within this many points of filling the row (rounding, the exporter's gaps) fill it. */
const TOLERANCE = 1;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const percent = (value: number) => `${Math.round(value * 10) / 10}%`;

/** A row's columns against its width: `width` is the row's width in px, for the share its gaps take. */
function rowFindings(row: RowNode, width: number, out: Finding[]): void {
  const { columns } = row;
  if (columns.length === 0) {
    out.push(
      finding(
        "warning",
        "ROW_WITHOUT_COLUMNS",
        [...row.path, "columns"],
        [],
        "The row has no columns: it holds no content, only its background and padding",
        "Add a column with the blocks it should hold, or remove the row",
      ),
    );
    return;
  }
  const inner = Math.max(1, width - row.style.padding.left - row.style.padding.right);
  const gaps = columns.length > 1 ? Math.min(50, ((row.style.gap * (columns.length - 1)) / inner) * 100) : 0;
  const declared = columns.map((c) => c.width);
  const given = sum(declared.map((w) => w ?? 0));
  const missing = declared.filter((w) => w === undefined).length;
  const path = [...row.path, "columns"];
  const widths = declared.map((w) => (w === undefined ? "auto" : percent(w))).join(" + ");
  if (missing === 0 && given > 100 + TOLERANCE) {
    out.push(
      finding(
        "warning",
        "COLUMN_WIDTHS_OVER",
        path,
        widths,
        `The column widths add up to ${percent(given)} of the row: every column is narrowed to fit`,
        "Make the widths add up to 100%",
      ),
    );
  } else if (missing === 0 && given < 100 - gaps - TOLERANCE) {
    out.push(
      finding(
        "warning",
        "COLUMN_WIDTHS_UNDER",
        path,
        widths,
        `The column widths add up to ${percent(given)} of the row: ${percent(100 - gaps - given)} of it stays empty`,
        "Make the widths add up to 100%, or leave one column's width out to give it the rest",
      ),
    );
  } else if (missing > 0 && given >= 100 - gaps - TOLERANCE) {
    columns.forEach((column, index) => {
      if (column.width !== undefined) return;
      out.push(
        finding(
          "warning",
          "COLUMN_WITHOUT_ROOM",
          [...row.path, "columns", String(index)],
          "",
          `This column has no width, and the others take the whole row (${percent(given)}): it is squeezed to nothing`,
          "Give the columns widths that add up to 100%",
        ),
      );
    });
  }
  const usable = inner * (1 - gaps / 100);
  const share = missing > 0 ? Math.max(0, 100 - gaps - given) / missing : 0;
  for (const column of columns) {
    const columnWidth = (usable * (column.width ?? share)) / Math.max(100, given) - column.style.padding.left - column.style.padding.right;
    walk(column.children, columnWidth, out);
  }
}

function walk(nodes: readonly (RowLike | ColumnChild)[], width: number, out: Finding[]): void {
  for (const node of nodes) if (node.kind === "row") rowFindings(node, width, out);
}

/** Ids written twice: tools that find a node by its id (an editor, a test) can pick the wrong one. */
function duplicateIds(json: unknown, registry: BlockRegistry, out: Finding[]): void {
  const seen = new Map<string, readonly string[]>();
  const visit = (raw: Record<string, unknown>, path: readonly string[]) => {
    const id = raw["id"];
    if (typeof id !== "string" && typeof id !== "number") return;
    const first = seen.get(String(id));
    if (first === undefined) return void seen.set(String(id), path);
    out.push(
      finding(
        "warning",
        "DUPLICATE_ID",
        [...path, "id"],
        id,
        `The id "${id}" is also the id of ${first.join("/")}: an editor or a tool that finds nodes by id can change the wrong one`,
        "Give each row, column and block an id of its own",
      ),
    );
  };
  walkDocument(json, registry, { row: visit, column: visit, rowSpacer: visit, block: visit });
}

/** Content HTML's unclosed elements: everything after the opening tag takes its formatting, or its link. */
function unclosedTags(template: Template, out: Finding[]): void {
  for (const node of blocksOf(template)) {
    const props = node.props as Record<string, unknown>;
    for (const field of fieldsOf(node.definition.editor)) {
      const html = props[field.prop];
      if (field.kind !== "richText" || typeof html !== "string") continue;
      for (const element of unclosedElements(html)) {
        const effect = element.name === "a" ? "is part of the link" : `takes its formatting`;
        out.push(
          finding(
            "warning",
            "UNCLOSED_TAG",
            [...node.path, "props", field.prop],
            element.tag,
            `${element.tag} is never closed: everything after it ${effect}`,
            `Close it with </${element.name}> where it should end`,
          ),
        );
      }
    }
  }
}

export function structureFindings(json: unknown, template: Template, registry: BlockRegistry): Finding[] {
  const out: Finding[] = [];
  const { canvas } = template;
  walk(template.rows, canvas.width - canvas.padding.left - canvas.padding.right, out);
  duplicateIds(json, registry, out);
  unclosedTags(template, out);
  return out;
}
