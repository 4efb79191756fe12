import { editorTemplateId } from "../../src/services/templates.js";

/** A small valid template (the format's minimum plus a merge tag), built fresh for each use. */
export function sampleTemplate(name = "Sample"): Record<string, unknown> {
  return {
    // The id the Maildeno editor writes, made from the name: the service gives the template its own.
    template_id: editorTemplateId(name),
    template_name: name,
    schema_version: "1.0",
    canvas: {},
    rows: [
      {
        id: "r1",
        type: "row",
        columns: [
          {
            id: "c1",
            width: 100,
            children: [
              { id: "h1", type: "component", componentType: "heading", props: { content: "Hi {{first_name|'there'}}" } },
              { id: "p1", type: "component", componentType: "paragraph", props: { content: "<p>Body text</p>" } },
            ],
          },
        ],
      },
    ],
  };
}
