/**
 * The engine's editor description (GET /api/v1/studio/editor, the engine's `editorDescriptions()`):
 * every block of the server's registry, and the canvas, rows, columns and row spacers, with each
 * field's kind, label, range and default. The forms, the palette and the tree's labels are generated
 * from it, so a block added to the engine appears here without a change to the studio.
 */
import { api } from "../api.js";

export interface Option {
  value: string;
  label: string;
}

interface FieldBase {
  prop: string;
  label: string;
  hint?: string;
  phone?: boolean;
  dark?: string;
  default?: unknown;
}

export type Field =
  | (FieldBase & { kind: "text"; mergeTags: boolean; multiline?: boolean })
  | (FieldBase & { kind: "richText"; markup: "inline" | "paragraphs" | "list" })
  | (FieldBase & { kind: "url" | "imageUrl" | "color" | "boolean" | "spacing" | "border" | "gradient" })
  | (FieldBase & { kind: "number"; unit: "px" | "%" | ""; min: number; max: number; step: number; auto?: boolean })
  | (FieldBase & { kind: "enum"; options: Option[] })
  | (FieldBase & { kind: "fontFamily" | "css"; suggestions: string[] })
  | (FieldBase & { kind: "entries"; itemLabel: string; fields: Field[] })
  | (FieldBase & { kind: "visibility"; operators: Option[] });

export interface Description {
  label: string;
  description: string;
  groups: { id: string; label: string; fields: Field[] }[];
  dark: { key: string; label: string }[];
}

export interface BlockDescription extends Description {
  type: string;
  example: Record<string, unknown>;
}

export interface Descriptions {
  version: number;
  canvas: Description;
  row: Description;
  column: Description;
  rowSpacer: Description;
  blocks: BlockDescription[];
}

/** The version of the description this studio reads; a newer one is still read, fields of unknown kinds shown as JSON. */
export const DESCRIPTION_VERSION = 1;

let loaded: Promise<Descriptions> | undefined;

export function loadDescriptions(): Promise<Descriptions> {
  loaded ??= api<Descriptions>("GET", "/api/v1/studio/editor").catch((err: unknown) => {
    loaded = undefined;
    throw err;
  });
  return loaded;
}

export function fieldsOf(description: Description): Field[] {
  return description.groups.flatMap((group) => group.fields);
}
