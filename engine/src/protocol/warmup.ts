/**
 * One render of every target over a template that touches every block, run while the V8 startup
 * snapshot is built: the snapshot then holds compiled, warmed engine code and a cold render skips
 * most of the module loading and first-call work.
 */
import { RENDER_TARGETS } from "../types.js";
import type { EnginePort } from "./engine-port.js";

const component = (id: string, componentType: string, props: Record<string, unknown>) => ({ id, type: "component", componentType, props });

export const WARMUP_TEMPLATE = {
  template_id: "warmup",
  template_name: "Warm-up {{ first_name }}",
  schema_version: "1.0",
  canvas: { fontFamily: "Georgia" },
  rows: [
    {
      id: "r1",
      type: "row",
      columns: [
        {
          id: "c1",
          width: 50,
          children: [
            component("h", "heading", { content: "Hello {{ first_name|'there' }}", level: "h1" }),
            component("p", "paragraph", { content: "<p>Text with <a href=\"{{ url.link }}\">a link</a></p>" }),
            component("l", "list", { content: "<ul><li>one</li><li>two</li></ul>" }),
            component("b", "button", { text: "Go", link: "https://example.com/?u={{ first_name }}" }),
            component("a", "anchor", { text: "More", link: "https://example.com" }),
          ],
        },
        {
          id: "c2",
          width: 50,
          children: [
            component("i", "image", { src: "https://example.com/a.png", alt: "{{ attr.alt }}", link: "https://example.com", enabled: true }),
            component("v", "video", { src: "https://example.com/v", coverImage: "https://example.com/c.png" }),
            component("d", "divider", {}),
            component("s", "spacer", { height: 10 }),
            component("m", "menu", { items: [{ label: "Home", link: "https://example.com", enabled: true }] }),
            component("so", "socials", { platforms: [{ name: "x", link: "https://x.com/a", enabled: true, icon: "https://example.com/x.png" }] }),
          ],
        },
      ],
      visibility: { enabled: true, match: "all", rules: [{ tag: "plan", operator: "==", value: "pro" }] },
    },
    { id: "sp", type: "row-spacer", height: 12 },
  ],
};

/** Never fails: a warm-up that cannot render only makes the snapshot less warm, so it just says so on stderr. */
export async function warmUp(engine: EnginePort, log: (line: string) => void): Promise<void> {
  for (const target of RENDER_TARGETS) {
    for (const minify of [true, false]) {
      try {
        await engine.render(WARMUP_TEMPLATE, {
          target,
          minify,
          dynamicData: { merge_tags: { text: { first_name: "Ada" }, url: { link: "https://example.com" } }, context: { plan: "pro" } },
        });
      } catch (error) {
        log(`warm-up render (${target}) failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
