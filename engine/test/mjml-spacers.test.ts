/**
 * A row spacer becomes the padding of the row beside it only where that looks the same (the
 * screenshots before and after are compared by scripts/compare-screenshots.ts); otherwise it stays
 * a section of its own.
 */
import { describe, expect, it } from "vitest";
import { render } from "../src/index.js";

const paragraph = (id: string) => ({ id, type: "component", componentType: "paragraph", props: { content: `<p>${id}</p>` } });
const row = (id: string, style: Record<string, unknown> = {}) => ({
  id,
  type: "row",
  ...style,
  columns: [{ id: `${id}-c`, width: 100, children: [paragraph(`${id}-p`)] }],
});
const spacer = (id: string, fields: Record<string, unknown> = {}) => ({ id, type: "row-spacer", height: 20, ...fields });

async function sections(rows: unknown[], canvas: Record<string, unknown> = {}): Promise<string[]> {
  const { output } = await render({ schema_version: "1.0", template_id: "t", template_name: "t", canvas, rows }, { target: "mjml" });
  return [...output.matchAll(/<mj-section[^>]*>/g)].map((m) => m[0]);
}

describe("row spacers folded into a row's padding", () => {
  it("goes into the row before it, else the row after it", async () => {
    expect(await sections([row("a"), spacer("s"), row("b")])).toEqual([
      '<mj-section background-color="#ffffff" padding="0px 0px 20px">',
      '<mj-section background-color="#ffffff" padding="0px">',
    ]);
    expect(await sections([spacer("s"), row("b", { padding: { top: 4, right: 8, bottom: 0, left: 8 } })])).toEqual([
      '<mj-section background-color="#ffffff" padding="24px 8px 0px">',
    ]);
  });

  it.each([
    ["a colour of its own", [row("a"), spacer("s", { backgroundColor: "#eeeeee" }), row("b")]],
    [
      "rows with a border",
      [row("a", { border: { width: 1, style: "solid", color: "#000000" } }), spacer("s"), row("b", { border: { width: 1, style: "solid", color: "#000000" } })],
    ],
    ["rows with a minimum height", [row("a", { minHeight: 40 }), spacer("s"), row("b", { minHeight: 40 })]],
    ["a dark colour of its own", [row("a"), spacer("s", { dark: { backgroundColor: "#000000" } }), row("b")]],
  ])("stays a section beside %s", async (_case, rows) => {
    expect((await sections(rows)).some((s) => s.startsWith('<mj-section padding="20px 0px 0px"'))).toBe(true);
  });

  it("keeps a transparent spacer beside a row of the content colour when the content has a dark colour", async () => {
    const found = await sections([row("a"), spacer("s"), row("b")], { dark: { backgroundColor: "#111111" } });
    expect(found.some((s) => s.startsWith('<mj-section padding="20px 0px 0px"'))).toBe(true);
  });
});
