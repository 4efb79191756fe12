/**
 * The engine's editor description (GET /api/v1/studio/editor, the engine's `editorDescriptions()`):
 * every block of the server's registry, and the canvas, rows, columns and row spacers, with each
 * field's kind, label, range and default. The forms, the palette and the tree's labels are generated
 * from it, so a block added to the engine appears here without a change to the studio.
 */
import type { EditorDescriptionJson, EditorDescriptionsJson, FieldJson } from "@mailrender/engine";
import { api } from "../api.js";

/** The description's types are the engine's own: one contract, checked when either side changes. */
export type Field = FieldJson;
export type Option = { readonly value: string; readonly label: string };
export type Description = EditorDescriptionJson;
export type BlockDescription = EditorDescriptionsJson["blocks"][number];
export type Descriptions = EditorDescriptionsJson;

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

export function fieldsOf(description: Description): readonly Field[] {
  return description.groups.flatMap((group) => group.fields);
}
