/**
 * Saved layouts (spec/README.md, "Saved layouts") through the protocol handler over the real engine
 * library: a render from a saved layout is byte for byte the render without it, a layout is used
 * only when intact and made by this engine, protocol and template, and anything else is ignored.
 * The release executable's side (and its instruction budget) is in engine/scripts/saved-layout-budget.ts.
 */
import { describe, expect, it } from "vitest";
import { listCases } from "../scripts/fixture-cases.js";
import { MANY_RENDERS } from "../src/engine/caches.js";
import { NODE_HOST } from "../src/engine/node-host.js";
import { createHandler, type Handled } from "../src/executable/handler.js";
import { TemplateStore } from "../src/executable/template-store.js";
import type { ErrorResponse, OkLayoutResponse, OkResponse } from "../src/protocol/response-schema.js";
import { responseSchema } from "../src/protocol/response-schema.js";
import { createEngine, libraryEngine } from "./support/engine-port.js";

const bytes = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const crc32 = NODE_HOST.crc32!;

/** A handler per call: each request is a fresh process's, as in one-shot mode. */
async function fresh(request: unknown): Promise<OkResponse> {
  const handled: Handled = await createHandler({ engine: libraryEngine, store: new TemplateStore() })(bytes(request));
  expect(responseSchema.safeParse(handled.response).success).toBe(true);
  if (!handled.response.ok) throw new Error(JSON.stringify((handled.response as ErrorResponse).error));
  const wire = Buffer.concat(handled.wire ?? []).toString("utf8");
  if (handled.wire) expect(wire).toBe(JSON.stringify(handled.response));
  return handled.response as OkResponse;
}

/** One long-lived process (--serve) with an engine of its own: its caches see only these requests. */
function serveProcess(): <R = OkResponse>(request: unknown) => Promise<R> {
  const handle = createHandler({ engine: createEngine(MANY_RENDERS), store: new TemplateStore() });
  return async <R>(request: unknown) => {
    const { response } = await handle(bytes(request));
    if (!response.ok) throw new Error(JSON.stringify((response as ErrorResponse).error));
    return response as R;
  };
}

/** A layout's text with its body changed and its checksum made right again: what only a writer who knows the format can do. */
function reSigned(layout: string, change: (body: Record<string, unknown>) => void): string {
  const body = JSON.parse(layout.slice(layout.indexOf("\n") + 1)) as Record<string, unknown>;
  change(body);
  const text = JSON.stringify(body);
  return `mailrender-layout ${crc32(text)}\n${text}`;
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

  describe("used in a long-lived process", () => {
    // A layout is the engine's compile handed back; what it compiled is then in its cache. The
    // evidence below is what the process answers, not how long it takes: under output_format
    // "layout" a compiled output keeps its id for as long as the cache keeps it (a compile makes a
    // new one), and a layout re-signed with a marker shows which later renders it answers.
    const MARKER = "<!-- from the adopted layout -->";
    const marked = (layout: string): string =>
      reSigned(layout, (body) => {
        for (const output of body["outputs"] as { parts: string[] }[]) output.parts[0] = MARKER + output.parts[0]!;
      });
    const other = { ...REQUEST, dynamic_data: { ...REQUEST.dynamic_data, context: { plan: "free", country: "FR", member_since: "2025-01-01" } } };

    for (const [how, first, later] of [
      ["with the template each time", REQUEST, REQUEST],
      ["kept by template_ref", { ...REQUEST, template_ref: "news@1" }, { target: "html", dynamic_data: REQUEST.dynamic_data, template_ref: "news@1" }],
    ] as const) {
      it(`join its cache: the next render of the template (${how}) compiles nothing`, async () => {
        const { saved_layout } = await fresh({ ...REQUEST, save_layout: true });
        const serve = serveProcess();
        const used = await serve<OkLayoutResponse>({ ...first, saved_layout, output_format: "layout" });
        expect(used.saved_layout_status).toBe("used");
        expect(used.layout.parts).toBeDefined();
        const next = await serve<OkLayoutResponse>({ ...later, output_format: "layout" });
        expect(next.layout).toEqual({ id: used.layout.id });
        expect(next.values).toEqual(used.values);
      });
    }

    it("answer the template's own renders only: its target, minification and visible sets, not another template's", async () => {
      const { saved_layout } = await fresh({ ...REQUEST, save_layout: true });
      const serve = serveProcess();
      expect((await serve({ ...REQUEST, saved_layout: marked(saved_layout!) })).output).toContain(MARKER);
      expect((await serve(REQUEST)).output).toContain(MARKER);
      const anotherTemplate = { ...REQUEST, template: { ...(newsletter.template as object), template_name: "another" } };
      for (const request of [other, { ...REQUEST, target: "mjml" }, { ...REQUEST, options: { minify: false } }, anotherTemplate]) {
        const response = await serve(request);
        expect(response.output, JSON.stringify(request).slice(0, 200)).not.toContain(MARKER);
        expect(response).toEqual(await fresh(request));
      }
    });

    it("adopted for one visible set do not answer another; extended, they answer both", async () => {
      const first = await fresh({ ...REQUEST, save_layout: true });
      const serve = serveProcess();
      const extended = await serve({ ...other, saved_layout: marked(first.saved_layout!), save_layout: true });
      expect(extended.saved_layout_status).toBe("extended");
      expect(extended.output).not.toContain(MARKER);
      expect((await serve(REQUEST)).output).toContain(MARKER);
      const second = serveProcess();
      expect((await second({ ...other, saved_layout: marked(extended.saved_layout!) })).saved_layout_status).toBe("used");
      for (const request of [REQUEST, other]) expect((await second(request)).output).toContain(MARKER);
    });

    it("do not replace what the process compiled itself", async () => {
      const { saved_layout } = await fresh({ ...REQUEST, save_layout: true });
      const serve = serveProcess();
      const compiled = await serve(REQUEST);
      expect((await serve({ ...REQUEST, saved_layout: marked(saved_layout!) })).saved_layout_status).toBe("used");
      expect((await serve(REQUEST)).output).toBe(compiled.output);
    });
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
