/** The amplification probe: 600 paragraphs (1,800 nodes) of 200 `{{ v }}` each, and one 64 KB value of `<` (7.9 GB asked for). */
const paragraphRow = (content: string) => ({ columns: [{ children: [{ type: "paragraph", props: { content } }] }] });

export const AMPLIFICATION_TEMPLATE = {
  template_id: "amplification",
  template_name: "Amplification",
  schema_version: "1.0",
  canvas: {},
  rows: Array.from({ length: 600 }, () => paragraphRow(`<p>${"{{ v }} ".repeat(200)}</p>`)),
};

export const AMPLIFICATION_DATA = { merge_tags: { text: { v: "<".repeat(65_536) } } };
