/**
 * The JSON Schema text of spec/protocol/v1/*.schema.json, generated from the zod schemas the
 * executable parses with. Written by engine/scripts/generate-protocol-schema.ts; a test fails when
 * the committed files differ from this output.
 */
import * as z from "zod/mini";
import { responseSchema } from "./response-schema.js";
import { renderRequestSchema } from "./schema.js";

export const PROTOCOL_SCHEMA_DIR = "spec/protocol/v1";

export function protocolSchemaFiles(): Record<string, string> {
  const file = (name: string, schema: z.ZodMiniType, io: "input" | "output", extra: Record<string, unknown> = {}): string => {
    const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "throw" });
    return `${JSON.stringify({ $id: `urn:mailrender:protocol:v1:${name}`, ...json, ...extra }, null, 2)}\n`;
  };
  return {
    // zod's refine ("template or template_ref") has no JSON Schema form of its own: state it here.
    "request.schema.json": file("request.schema.json", renderRequestSchema(), "input", {
      anyOf: [{ required: ["template"] }, { required: ["template_ref"] }],
    }),
    "response.schema.json": file("response.schema.json", responseSchema, "output"),
  };
}
