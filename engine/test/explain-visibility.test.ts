/** The studio's visibility panel: each node's decision and the rules behind it. */
import { describe, expect, it } from "vitest";
import { explainVisibility } from "../src/index.js";

const pro = { enabled: true, match: "all", rules: [{ tag: "plan", operator: "==", value: "pro" }] };
const template = {
  template_id: "t",
  template_name: "T",
  schema_version: "1.0",
  canvas: {},
  rows: [
    {
      id: "r1",
      type: "row",
      visibility: pro,
      columns: [{ id: "c1", width: 100, children: [{ id: "p1", type: "component", componentType: "paragraph", props: { content: "x", mobileHide: true } }] }],
    },
  ],
};

describe("explainVisibility", () => {
  it("says which rule decided, and hides the children of a hidden row", () => {
    const hidden = explainVisibility(template, { Plan: "free" });
    expect(hidden.map((d) => [d.id, d.kind, d.visible, d.reason])).toEqual([
      ["r1", "row", false, "rules failed (all)"],
      ["c1", "column", false, "inside a hidden parent"],
      ["p1", "component", false, "inside a hidden parent"],
    ]);
    expect(hidden[0]!.rules).toEqual([{ tag: "plan", operator: "==", value: "pro", actual: "free", passed: false }]);
    expect(hidden[2]!.hiddenOn).toEqual(["mobile"]);
    const shown = explainVisibility(template, { plan: "pro" });
    expect(shown.every((d) => d.visible)).toBe(true);
    expect(shown[0]!.reason).toBe("rules passed (all)");
  });
});
