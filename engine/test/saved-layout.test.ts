/**
 * Saved layouts (spec/README.md, "Saved layouts") through the protocol handler over the real engine
 * library: a render from a saved layout is byte for byte the render without it, a layout is used
 * only when intact and made by this engine, protocol and template, and anything else is ignored.
 * The release executable's side (and its instruction budget) is in engine/scripts/saved-layout-budget.ts.
 */
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { NODE_HOST } from "../src/engine/node-host.js";
import { createHandler, type Handled } from "../src/executable/handler.js";
import { TemplateStore } from "../src/executable/template-store.js";
import type { ErrorResponse, OkResponse } from "../src/protocol/response-schema.js";
import { responseSchema } from "../src/protocol/response-schema.js";
import { libraryEngine } from "./support/engine-port.js";

const bytes = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const sha256 = NODE_HOST.sha256!;

/** A handler per call: each request is a fresh process's, as in one-shot mode. */
async function fresh(request: unknown): Promise<OkResponse> {
  const handled: Handled = await createHandler({ engine: libraryEngine, store: new TemplateStore() })(bytes(request));
  expect(responseSchema.safeParse(handled.response).success).toBe(true);
  if (!handled.response.ok) throw new Error(JSON.stringify((handled.response as ErrorResponse).error));
  const wire = Buffer.concat(handled.wire ?? []).toString("utf8");
  if (handled.wire) expect(wire).toBe(JSON.stringify(handled.response));
  return handled.response as OkResponse;
}

/** A layout's text with its body changed and its checksum made right again: what only a writer who knows the format can do. */
function reSigned(layout: string, change: (body: Record<string, unknown>) => void): string {
  const body = JSON.parse(layout.slice(layout.indexOf("\n") + 1)) as Record<string, unknown>;
  change(body);
  const text = JSON.stringify(body);
  return `mailrender-layout ${sha256(text)}\n${text}`;
}

const newsletter = listCases("render").find((c) => c.name === "realistic-newsletter")!;
const REQUEST = { template: newsletter.template, target: "html", dynamic_data: newsletter.dynamicData } as const;

describe("saved layouts", () => {
  it("render every golden fixture in every target as the template does, from the layout alone", async () => {
    for (const c of listCases("render")) {
      for (const target of ["html", "mjml", "react-email"] as const) {
        const request = { template: c.template, target, dynamic_data: c.dynamicData, options: { minify: c.minify, strict: c.strict } };
        const plain = await fresh(request);
        const saved = await fresh({ ...request, save_layout: true });
        expect(saved.saved_layout_status, c.name).toBe("ignored");
        expect(saved.output).toBe(plain.output);
        const used = await fresh({ ...request, saved_layout: saved.saved_layout, save_layout: true });
        expect(used.saved_layout_status, `${c.name} ${target}`).toBe("used");
        expect(used).not.toHaveProperty("saved_layout");
        expect(used.output, `${c.name} ${target}`).toBe(plain.output);
        expect(used.warnings).toEqual(plain.warnings);
        expect(used.template_id).toBe(plain.template_id);
      }
    }
  });

  it("are extended with each visible set, and render each recipient as the template does", async () => {
    const first = await fresh({ ...REQUEST, save_layout: true });
    const other = { ...REQUEST, dynamic_data: { ...REQUEST.dynamic_data, context: { plan: "free", country: "FR", member_since: "2025-01-01" } } };
    const extended = await fresh({ ...other, saved_layout: first.saved_layout, save_layout: true });
    expect(extended.saved_layout_status).toBe("extended");
    expect(extended.output).toBe((await fresh(other)).output);
    expect(extended.output).not.toBe(first.output);
    for (const request of [REQUEST, other]) {
      const used = await fresh({ ...request, saved_layout: extended.saved_layout });
      expect(used.saved_layout_status).toBe("used");
      expect(used.output).toBe((await fresh(request)).output);
    }
  });

  it("are extended, not used, for what they do not hold: another target, minification or plain text", async () => {
    const { saved_layout } = await fresh({ ...REQUEST, save_layout: true });
    for (const change of [{ target: "mjml" }, { options: { minify: false } }, { options: { plain_text: true } }]) {
      const request = { ...REQUEST, ...change };
      const response = await fresh({ ...request, saved_layout });
      expect(response.saved_layout_status, JSON.stringify(change)).toBe("extended");
      expect(response).toEqual({ ...(await fresh(request)), saved_layout_status: "extended" });
    }
  });

  it("are left alone by a component render: one for every recipient, nothing saved beside it", async () => {
    const { saved_layout } = await fresh({ ...REQUEST, target: "react-email", save_layout: true });
    const component = { template: newsletter.template, target: "react-email", options: { component_props: true } };
    const response = await fresh({ ...component, saved_layout, save_layout: true });
    expect(response).toEqual(await fresh(component));
    expect(response).not.toHaveProperty("saved_layout_status");
  });

  it("are ignored when garbled, or made by another engine, protocol or template, or shaped otherwise — never an error", async () => {
    const plain = await fresh(REQUEST);
    const { saved_layout } = await fresh({ ...REQUEST, save_layout: true });
    const layout = saved_layout!;
    const injected = layout.replace("<body", "<body><script>alert(1)</script");
    expect(injected).not.toBe(layout);
    const otherTemplate = await fresh({ ...REQUEST, template: { ...(newsletter.template as object), template_name: "another" }, save_layout: true });
    const bad: Record<string, string> = {
      "markup injected": injected,
      truncated: layout.slice(0, layout.length - 100),
      "checksum of another body": `${layout.slice(0, layout.indexOf("\n"))}\n${JSON.stringify({})}`,
      "not a layout": "hello",
      "another template's": otherTemplate.saved_layout!,
      "another engine's": reSigned(layout, (body) => {
        body["engine_version"] = "0.0.1";
      }),
      "another protocol's": reSigned(layout, (body) => {
        body["protocol_version"] = 2;
      }),
      "an unknown escaping": reSigned(layout, (body) => {
        for (const output of body["outputs"] as { slots: { position: string }[] }[]) for (const slot of output.slots) slot.position = "raw";
      }),
      "parts not matching slots": reSigned(layout, (body) => {
        (body["outputs"] as { parts: string[] }[])[0]!.parts.push("<script>");
      }),
    };
    for (const [what, text] of Object.entries(bad)) {
      const response = await fresh({ ...REQUEST, saved_layout: text, save_layout: true });
      expect(response.saved_layout_status, what).toBe("ignored");
      expect(response.output, what).toBe(plain.output);
      expect(response.saved_layout, what).toBe(layout);
    }
  });

  it("are checked against the template: a layout needs the template in the request", async () => {
    const handled = await createHandler({ engine: libraryEngine, store: new TemplateStore() })(
      bytes({ template_ref: "news@1", target: "html", saved_layout: "x" }),
    );
    expect(handled.response.ok).toBe(false);
    expect((handled.response as ErrorResponse).error.code).toBe("BAD_REQUEST");
    expect((handled.response as ErrorResponse).error.issues[0]?.loc).toEqual(["template"]);
  });

  it("leave merge-tag values to this render's escaping", async () => {
    const hostile = { ...REQUEST, dynamic_data: { ...REQUEST.dynamic_data, merge_tags: { text: { first_name: '<script>"x"</script>' } } } };
    const { saved_layout } = await fresh({ ...REQUEST, save_layout: true });
    const used = await fresh({ ...hostile, saved_layout });
    expect(used.saved_layout_status).toBe("used");
    expect(used.output).toBe((await fresh(hostile)).output);
    expect(used.output).not.toContain("<script>");
  });
});
