/**
 * The published JSON Schema of template documents (spec/template/v1/template.schema.json, and the
 * server's OpenAPI document), converted from the zod schema the clients type with. zod writes most
 * rules itself; what it cannot read is restored here, so that a document the schema allows is one
 * the engine accepts:
 * - a regular expression's flags: JSON Schema patterns have none, so `i` is spelled out as `[aA]`;
 * - `.trim()` before a pattern: the pattern allows the white space the engine removes;
 * - refinements and preprocessing (functions): their hint (`json-schema-hints.ts`) says what they
 *   accept, and a refinement without one stops the generation instead of vanishing;
 * - the structure as the reader (`parse.ts`) walks it: rows nest at most `MAX_NESTING_DEPTH` deep,
 *   a missing or null list reads as empty, block types this version does not know are accepted.
 */
import * as z from "zod/mini";
import { BLOCKS, type BlockRegistry } from "../blocks/registry.js";
import { jsonSchemaHints } from "../schema/json-schema-hints.js";
import { documentSchema } from "./document-schema.js";
import { MAX_NESTING_DEPTH } from "./schema.js";

export const TEMPLATE_SCHEMA_ID = "https://mailrender.dev/spec/template/v1/template.schema.json";

export type JsonSchema = Record<string, unknown>;

/** The JSON Schema document (draft 2020-12) of a template, version 1, with the blocks of `registry`. */
export function templateJsonSchema(registry: BlockRegistry = BLOCKS): JsonSchema {
  const { document, names } = documentSchema(registry);
  const schema = z.toJSONSchema(document, {
    io: "input",
    unrepresentable: "throw",
    target: "draft-2020-12",
    metadata: names,
    override: ({ zodSchema, jsonSchema }) => restoreRules(zodSchema, jsonSchema),
  });
  readerStructure(schema["$defs"] as Record<string, JsonSchema>, Object.keys(registry));
  return {
    ...schema,
    $id: TEMPLATE_SCHEMA_ID,
    title: "mailrender template document, version 1",
    description: `Generated from the engine's zod schema (engine/src/template). Every field except the five top-level keys has a default and may be omitted. Block types this engine version does not know are accepted with a warning and not rendered. Rows nest at most ${MAX_NESTING_DEPTH} deep (Row, Row2, … Row${MAX_NESTING_DEPTH}). Beyond this schema, a document has at most 2,000 nodes (rows, row spacers, columns, blocks and the entries of a block's lists), and mobile-override values with parentheses nested more than 4 deep are not described here.`,
  };
}

type ZodInternals = { _zod: { def: { type: string; checks?: { _zod: { def: CheckDef } }[]; in?: ZodInternals } } };
type CheckDef = { check: string; format?: string; pattern?: RegExp; tx?: (value: string) => string };

function restoreRules(zodSchema: z.core.$ZodType, json: JsonSchema): void {
  const hint = jsonSchemaHints.get(zodSchema);
  if (hint !== undefined) {
    if ("schema" in hint) {
      for (const key of Object.keys(json)) if (key !== "default" && key !== "description") delete json[key];
      Object.assign(json, hint.schema(jsonPattern));
    } else {
      for (const key of ["enum", "const", "format", "allOf"]) delete json[key];
      Object.assign(json, { type: "string", pattern: jsonPattern(hint.pattern(), hint.trimmed ?? false) });
    }
    return;
  }
  const def = (zodSchema as unknown as ZodInternals)._zod.def;
  if (def.type === "pipe" && def.in?._zod.def.type === "transform") throw new Error(`A preprocessed schema needs a JSON Schema hint (json-schema-hints.ts)`);
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  if (checks.some((check) => check.check === "custom"))
    throw new Error(`A refinement needs a JSON Schema hint (json-schema-hints.ts): ${JSON.stringify(json)}`);
  if (def.type !== "string") return;
  let trimmed = false;
  const patterns: string[] = [];
  for (const check of checks) {
    if (check.check === "overwrite") {
      if (check.tx?.(" a ") !== "a") throw new Error("A string transformation other than trim() needs a JSON Schema hint");
      trimmed = true;
    } else if (check.check === "string_format" && check.format === "regex" && check.pattern !== undefined) {
      patterns.push(jsonPattern(check.pattern, trimmed));
    } else if (trimmed) {
      throw new Error(`A "${check.check}" check after trim() has no JSON Schema form`);
    }
  }
  delete json["allOf"];
  delete json["pattern"];
  if (patterns.length === 1) json["pattern"] = patterns[0];
  else if (patterns.length > 1) json["allOf"] = patterns.map((pattern) => ({ pattern }));
}

/** A JSON Schema pattern (ECMA-262, no flags) matching what `regex` matches, after trimming when `trimmed`. */
export function jsonPattern(regex: RegExp, trimmed: boolean): string {
  if (!/^i?$/.test(regex.flags)) throw new Error(`Unsupported regular expression flags: ${regex.flags}`);
  const source = regex.flags === "i" ? caseless(regex.source) : regex.source;
  if (!trimmed) return source;
  if (!source.startsWith("^") || !source.endsWith("$") || source.endsWith("\\$")) throw new Error(`A trimmed pattern must be anchored: ${source}`);
  const inner = source.slice(1, -1);
  if (!mayMatchSpaceAtAnEdge(inner)) return String.raw`^\s*(?:${inner})\s*$`;
  // The trimmed value starts and ends with something other than white space: the inner pattern must
  // match exactly that (a value of white space only reads as "").
  const trimmedValue = String.raw`(?=\S)(?:${inner})(?<=\S)`;
  return new RegExp(`^(?:${inner})$`).test("") ? String.raw`^\s*(?:${trimmedValue})?\s*$` : String.raw`^\s*${trimmedValue}\s*$`;
}

/**
 * Whether a pattern might match white space at its start or end, where `^\s*(?:p)\s*$` would accept
 * more than the trimmed value does: a literal space, `.` or a negated class anywhere, `\s` at an edge.
 * Patterns with white space only between their tokens (`to\s+left`) keep the simpler form.
 */
function mayMatchSpaceAtAnEdge(inner: string): boolean {
  return /[ ]|\[\^|(?:^|[^\\])\./.test(inner) || /^(?:\(\?:)*\\s/.test(inner) || /\\s[*+?]?\)*$/.test(inner);
}

/** One token: an escape sequence (`\d`, `\.`, `\u00a0`, …) starting at `at`. */
function escapeAt(source: string, at: number): string {
  const next = source[at + 1];
  if (next === "u") return source.slice(at, at + 6);
  if (next === "x") return source.slice(at, at + 4);
  if (next === "c") return source.slice(at, at + 3);
  if (next === "p" || next === "P" || next === "k") throw new Error(`Unsupported escape \\${next} in a case-insensitive pattern`);
  return source.slice(at, at + 2);
}

const isLetter = (c: string) => /^[a-zA-Z]$/.test(c);
const otherCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/** `source` with every ASCII letter matching in either case, as the `i` flag (without `u`) reads it. */
function caseless(source: string): string {
  let out = "";
  for (let at = 0; at < source.length; ) {
    const c = source[at]!;
    if (c === "\\") {
      const token = escapeAt(source, at);
      out += token;
      at += token.length;
    } else if (c === "[") {
      const end = classEnd(source, at);
      out += caselessClass(source.slice(at + 1, end));
      at = end + 1;
    } else if (c === "(" && source.startsWith("(?<", at)) {
      throw new Error("Named groups and look-behinds are not supported in a case-insensitive pattern");
    } else {
      out += isLetter(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
      at++;
    }
  }
  return out;
}

function classEnd(source: string, start: number): number {
  for (let at = start + 1; at < source.length; at++) {
    if (source[at] === "\\") at += escapeAt(source, at).length - 1;
    else if (source[at] === "]") return at;
  }
  throw new Error(`Unterminated character class in ${source}`);
}

/** A character class (its content between the brackets) with the other case of every letter added. */
function caselessClass(content: string): string {
  const negated = content.startsWith("^");
  const body = negated ? content.slice(1) : content;
  const added: string[] = [];
  for (let at = 0; at < body.length; ) {
    const start = body[at] === "\\" ? escapeAt(body, at) : body[at]!;
    at += start.length;
    if (body[at] === "-" && at + 1 < body.length) {
      const end = body[at + 1] === "\\" ? escapeAt(body, at + 1) : body[at + 1]!;
      at += 1 + end.length;
      const lettersOnly = isLetter(start) && isLetter(end) && (start === start.toLowerCase()) === (end === end.toLowerCase());
      if (lettersOnly) added.push(`${otherCase(start)}-${otherCase(end)}`);
      else if (start.length === 1 && end.length === 1 && start <= "z" && end >= "A")
        throw new Error(`A range across letters (${start}-${end}) in a case-insensitive pattern`);
    } else if (isLetter(start)) {
      added.push(otherCase(start));
    }
  }
  return `[${negated ? "^" : ""}${added.join("")}${body}]`;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });
const atDepth = (name: string, depth: number) => (depth === 1 ? name : `${name}${depth}`);
const listOrNull = (items: JsonSchema): JsonSchema => ({ anyOf: [{ type: "array", items }, { type: "null" }] });

/**
 * zod writes rows and columns as one recursive pair and each block shape strictly; the reader
 * (`parse.ts`) is bounded and more forgiving. Rewritten here to say what it accepts: one Row/Column
 * pair per nesting depth, `columns`/`children`/`components`/`props` optional or null, a row spacer's
 * height optional (one without a positive height is dropped with a warning), and any block type.
 */
function readerStructure(defs: Record<string, JsonSchema>, known: readonly string[]): void {
  const { Row: row, Column: column } = defs as Record<string, { properties: Record<string, JsonSchema>; required?: string[] }>;
  if (row === undefined || column === undefined) throw new Error("The template schema has no Row or Column definition");
  const shapes = ((column.properties["children"] as { items: { anyOf: JsonSchema[] } }).items.anyOf ?? []).filter((shape) => !("$ref" in shape));
  defs["Block"] = {
    description:
      'A block: `{type: "component", componentType, props}`, or the older `{type: <block type>, props}`. Other block types are accepted with a warning and not rendered.',
    anyOf: [
      ...shapes.map((shape) => {
        const properties = shape["properties"] as Record<string, JsonSchema>;
        const legacy = properties["componentType"] === undefined;
        return {
          ...shape,
          properties: { ...properties, ...(legacy && { componentType: { type: "null" } }), props: { anyOf: [properties["props"], { type: "null" }] } },
        };
      }),
      {
        type: "object",
        properties: { type: { const: "component" }, componentType: { type: "string", not: { enum: known } } },
        required: ["type", "componentType"],
      },
      {
        type: "object",
        properties: { type: { type: "string", not: { enum: [...known, "component", "row", "row-spacer"] } }, componentType: { type: "null" } },
        required: ["type"],
      },
    ],
  };
  const spacer = defs["RowSpacer"] as { required?: string[] };
  spacer.required = (spacer.required ?? []).filter((name) => name !== "height");
  for (let depth = 1; depth <= MAX_NESTING_DEPTH; depth++) {
    const nested = depth < MAX_NESTING_DEPTH ? atDepth("Row", depth + 1) : undefined;
    defs[atDepth("ColumnChild", depth)] = {
      anyOf: [
        ref("Block"),
        ref("RowSpacer"),
        ...(nested === undefined
          ? []
          : [
              { ...ref(nested), required: ["type"] },
              { ...ref(nested), properties: { columns: { type: "array" } }, required: ["columns"] },
            ]),
      ],
    };
    const children = listOrNull(ref(atDepth("ColumnChild", depth)));
    defs[atDepth("Column", depth)] = { ...column, properties: { ...column.properties, children, components: children } };
    const { required: rowRequired = [], ...rowShape } = row;
    const required = rowRequired.filter((name) => name !== "columns");
    defs[atDepth("Row", depth)] = {
      ...rowShape,
      ...(depth > 1 && { description: `A row inside a column, at nesting depth ${depth} (the top level is 1)` }),
      properties: { ...row.properties, columns: listOrNull(ref(atDepth("Column", depth))) },
      ...(required.length > 0 && { required }),
    };
  }
}
