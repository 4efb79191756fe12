/**
 * The bare type schemas, one instance each for every field that is just a number, a string or a
 * flag, or starts from one (`numberSchema.check(…)` clones it): the release executable builds each
 * instance in every process (docs/design/template-reading.md, "What building a schema costs"). A
 * schema is stateless; nothing registers these instances themselves (metadata goes on the clones).
 */
import * as z from "zod/mini";

export const numberSchema = z.number();
export const stringSchema = z.string();
export const booleanSchema = z.boolean();
