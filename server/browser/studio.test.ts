/**
 * The studio as its users drive it, in Debian's chromium through puppeteer-core: sign in with the
 * admin key, open a fixture's template from a file, edit its sample data and see the previews
 * change, edit its JSON beside the design without losing what the forms do not show, see the
 * validation issues of a broken template; an admin gives keys their roles; a viewer key opens a
 * shared link with nothing to change offered, an SDK key is turned away; the editor's layout at 390,
 * 1280 and 1920 px (screenshots in server/browser/screenshots/, git-ignored, for review); another
 * site cannot frame it. Any console error of a page fails the test.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ElementHandle, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, editorJson, fill, prop, type Studio, shot, signIn, startStudio } from "./studio-page.js";

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/render/realistic-receipt/case.json");

let studio: Studio;
let page: Page;
/** The receipt's address in the studio, once opened. */
let templatePath = "";

const frameHas = (testId: string, text: string) =>
  page.waitForFunction((id, t) => (document.querySelector(`iframe[data-testid="${id}"]`) as HTMLIFrameElement | null)?.srcdoc.includes(t), {}, testId, text);

async function replaceText(selector: string, text: string): Promise<void> {
  await fill(page, selector, "");
  await page.keyboard.type(text);
}

beforeAll(async () => {
  studio = await startStudio();
  page = await studio.open(1600, 1000);
});

afterAll(async () => {
  await studio?.close();
});

describe("studio in chromium", () => {
  it("signs in with the admin key, by keyboard", async () => {
    await page.goto(`${studio.server.url}/studio`, { waitUntil: "networkidle0" });
    await page.waitForSelector('[data-testid="api-key"]');
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("api-key");
    await page.keyboard.type(`sk_live_${"0".repeat(64)}`);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector('[role="alert"]')?.textContent?.includes("not recognised"));
    await page.click("#api-key", { count: 3 });
    await page.keyboard.type(studio.server.adminKey);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#list-title");
    expect(await page.evaluate(() => sessionStorage.getItem("mailrender.apiKey"))).toBe(studio.server.adminKey);
    expect(await page.$eval('[data-testid="signed-in-as"]', (e) => e.textContent)).toBe("bootstrap-admin · admin");
    await shot(page, "01-signed-in");
  });

  it("opens a fixture's template from a file, in the editor, with its previews", async () => {
    const file = path.join(tmpdir(), `order-confirmation-${process.pid}.json`);
    writeFileSync(file, JSON.stringify((JSON.parse(readFileSync(FIXTURE, "utf8")) as { template: unknown }).template));
    const input = (await page.waitForSelector('input[data-testid="new-template-file"]')) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(file);
    await page.waitForFunction(() => /^\/studio\/templates\/[0-9a-f-]{36}$/.test(location.pathname));
    templatePath = await page.evaluate(() => location.pathname);
    await page.waitForSelector('iframe[data-testid="phone-frame"]');
    expect(await page.$eval(".template-name", (h) => h.textContent)).toContain("confirmed");
    // Pre-filled sample data: every tag the template uses, with its name as the placeholder.
    await page.waitForFunction(() => (document.querySelector("#sample-data") as HTMLTextAreaElement | null)?.value.includes("first_name"));
    const sample = JSON.parse(await page.$eval("#sample-data", (t) => (t as HTMLTextAreaElement).value)) as { merge_tags: { text: Record<string, string> } };
    expect(sample.merge_tags.text["first_name"]).toBe("first name");
    await frameHas("desktop-frame", "Thanks for your order, first name!");
    expect(await page.$eval('[data-testid="size"]', (p) => p.textContent)).toMatch(/KB of Gmail's 102\.0 KB clipping limit/);
    await page.click('[data-testid="target-text"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="plain-text"]')?.textContent?.includes("Thanks for your order, first name!"));
    await page.click('[data-testid="target-html"]');
    await shot(page, "02-opened");
  });

  it("edits the sample data and sees both previews change, then keeps it after a reload", async () => {
    const data = { merge_tags: { text: { first_name: "Zelda", order_number: "Z-42" } }, context: { shipping_method: "", gift_message: "" } };
    await replaceText("#sample-data", JSON.stringify(data));
    await frameHas("phone-frame", "Thanks for your order, Zelda!");
    await frameHas("desktop-frame", "Thanks for your order, Zelda!");
    // The phone frame really lays the email out at 375 px: its document is no wider than the frame.
    const phone = await (await page.$('iframe[data-testid="phone-frame"]'))!.contentFrame();
    const widths = await phone.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.view).toBe(375);
    expect(widths.doc).toBeLessThanOrEqual(widths.view);
    // Hidden by the empty context: the visibility panel says which rule decided.
    expect(await page.$eval('[data-testid="visibility"]', (t) => t.textContent)).toMatch(/hidden.*rules failed/s);
    await shot(page, "03-sample-edited");
    await page.click("button::-p-text(Save sample data)");
    await page.waitForFunction(() => [...document.querySelectorAll('[role="status"]')].some((s) => s.textContent?.startsWith("Saved at")));
    await page.reload({ waitUntil: "networkidle0" });
    await frameHas("desktop-frame", "Zelda");
  });

  it("edits the template's JSON beside the design: checked as typed, and what the forms do not show is kept", async () => {
    await page.click('[data-testid="tab-json"]');
    const json = '[data-testid="template-json"]';
    const doc = JSON.parse(await page.$eval(json, (t) => (t as HTMLTextAreaElement).value)) as Record<string, unknown>;
    await replaceText(json, "{ not json");
    await page.waitForFunction(() => document.querySelector('[data-testid="json-status"]')?.textContent?.startsWith("Not JSON"));
    // A key of the studio's own and one the engine ignores, on the email and on a block: kept through form edits and the save.
    const block = (doc["rows"] as { columns: { children: Record<string, unknown>[] }[] }[])[0]!.columns[0]!.children[0]!;
    block["x_note"] = { by: "copy desk" };
    doc["x_campaign"] = "spring";
    await page.$eval(
      json,
      (t, text) => {
        const area = t as HTMLTextAreaElement;
        area.value = text;
        area.dispatchEvent(new Event("input", { bubbles: true }));
      },
      JSON.stringify(doc, null, 2),
    );
    await page.waitForFunction(() => document.querySelector('[data-testid="json-status"]')?.textContent?.startsWith("Valid template JSON"));
    await page.click('[data-testid="tab-form"]');
    await page.click('[data-node-path="rows.0.columns.0.children.0"] .node-title');
    await page.waitForSelector(prop("padding.top"));
    await fill(page, prop("padding.top"), "12");
    await page.click('[data-testid="save"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="save-state"]')?.textContent?.startsWith("Saved"));
    const id = templatePath.split("/").at(-1)!;
    const stored = (await apiCall(studio.server, "GET", `/api/v1/templates/${id}`, studio.server.adminKey)).json.template;
    expect(stored["x_campaign"]).toBe("spring");
    expect(stored.rows[0].columns[0].children[0]["x_note"]).toEqual({ by: "copy desk" });
    expect(stored.rows[0].columns[0].children[0].props.padding.top).toBe(12);
    expect((await editorJson(page))["x_campaign"]).toBe("spring");
  });

  it("shows the validation issues of a broken template with their paths and the block they point at", async () => {
    const broken = {
      template_name: "Broken",
      schema_version: "1.0",
      canvas: {},
      rows: [
        {
          id: "r1",
          type: "row",
          columns: [{ id: "c1", width: 100, children: [{ id: "h-bad", type: "component", componentType: "heading", props: { level: "h9" } }] }],
        },
      ],
    };
    await page.click("a::-p-text(Templates)");
    await page.waitForSelector("#new-template-paste");
    await page.focus("#new-template-paste");
    await page.keyboard.type(JSON.stringify(broken));
    await page.click("button::-p-text(Create template)");
    const issues = await page.waitForSelector('[data-testid="template-problem"] [data-testid="issues"]');
    const text = await issues!.evaluate((ul) => ul.textContent ?? "");
    expect(text).toContain("body.rows.0.columns.0.children.0.props.level");
    expect(text).toContain('in heading "h-bad"');
    await shot(page, "04-validation-issue");
  });

  it("refuses to be framed by another site", async () => {
    const attacker = await studio.browser.newPage();
    try {
      await attacker.setContent(`<iframe id="victim" src="${studio.server.url}/studio" width="800" height="600"></iframe>`, { waitUntil: "load" });
      const framed = attacker.frames().find((f) => f !== attacker.mainFrame());
      // Chromium replaces a refused frame with its error page: the studio's document never loads.
      expect(framed?.url()).not.toBe(`${studio.server.url}/studio`);
    } finally {
      await attacker.close();
    }
    await page.bringToFront();
  });

  it("lets an admin create a key with a role (shown once) and change a key's role", async () => {
    await page.click("a::-p-text(API keys)");
    await page.waitForSelector('[data-testid="keys"]');
    await fill(page, '[data-testid="key-name"]', "copy-desk");
    await page.select('[data-testid="key-role"]', "editor");
    await page.click('[data-testid="create-key"]');
    const created = await page.waitForSelector('[data-testid="created-key"]');
    const secret = /^sk_live_\w+$/.exec(await created!.$eval("input", (i) => (i as HTMLInputElement).value))?.[0];
    expect(secret).toBeDefined();
    const keys = (await apiCall(studio.server, "GET", "/api/v1/keys", studio.server.adminKey)).json.keys as { id: string; name: string; role: string }[];
    const copyDesk = keys.find((k) => k.name === "copy-desk")!;
    expect(copyDesk.role).toBe("editor");
    expect((await apiCall(studio.server, "GET", "/api/v1/me", secret!)).json.role).toBe("editor");
    // The admin makes it a viewer: the key may read from now on, and no more.
    await page.select(`[data-testid="role-${copyDesk.id}"]`, "viewer");
    await page.waitForFunction(
      async (key) => (await (await fetch("/api/v1/me", { headers: { authorization: `Bearer ${key}` } })).json()).role === "viewer",
      {},
      secret!,
    );
    await shot(page, "05-keys");
  });

  it("a viewer key opens a shared link: previews and sample data, nothing to change offered; an SDK key is turned away", async () => {
    const viewer = (await apiCall(studio.server, "POST", "/api/v1/keys", studio.server.adminKey, { name: "copy-checker", role: "viewer" })).json.key as string;
    const sdk = (await apiCall(studio.server, "POST", "/api/v1/keys", studio.server.adminKey, { name: "backend", targets: ["html"] })).json.key as string;
    await page.click("button::-p-text(Sign out)");
    await page.goto(`${studio.server.url}${templatePath}`, { waitUntil: "networkidle0" });
    await page.type("#api-key", sdk);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector('[role="alert"]')?.textContent?.includes("for the SDK only"));
    await page.click("#api-key", { count: 3 });
    await page.keyboard.type(viewer);
    await page.keyboard.press("Enter");
    await frameHas("desktop-frame", "Zelda");
    expect(await page.$eval('[data-testid="signed-in-as"]', (e) => e.textContent)).toBe("copy-checker · viewer (read only)");
    expect(await page.$eval('[data-testid="save-state"]', (e) => e.textContent)).toBe("Read only");
    for (const hook of ["save", "undo", "redo", "add-row-1", "add-block-paragraph", "delete", "merge-tag-text"])
      expect(await page.$(`[data-testid="${hook}"]`)).toBeNull();
    expect(await page.$("button::-p-text(Save sample data)")).toBeNull();
    expect(await page.$("a::-p-text(API keys)")).toBeNull();
    // The forms show the values, read only.
    await page.click('[data-node-path="rows.0.columns.0.children.0"] .node-title');
    expect(await page.$eval(prop("padding.top"), (i) => (i as HTMLInputElement).readOnly)).toBe(true);
    // Previews still follow the sample data as the viewer edits it (without saving).
    await replaceText("#sample-data", JSON.stringify({ merge_tags: { text: { first_name: "Vera" } } }));
    await frameHas("phone-frame", "Vera");
    await shot(page, "06-viewer");
    // And the server refuses the viewer's writes whatever the page offers.
    const id = templatePath.split("/").at(-1)!;
    expect(
      (await apiCall(studio.server, "PUT", `/api/v1/templates/${id}`, viewer, { template_name: "x", schema_version: "1.0", canvas: {}, rows: [] })).status,
    ).toBe(403);
  });

  it("lays the editor out at 390, 1280 and 1920 px: no page wider than the screen, tree, form and previews where they can be reached", async () => {
    await page.click("button::-p-text(Sign out)");
    // A touch screen from here on (changing it reloads the page).
    await page.setViewport({ width: 1600, height: 1000, hasTouch: true });
    await signIn(page, `${studio.server.url}${templatePath}`, studio.server.adminKey);
    await frameHas("desktop-frame", "Zelda");
    await page.click('[data-node-path="rows.0.columns.0.children.0"] .node-title');
    const box = (selector: string) =>
      page.$eval(selector, (e) => {
        const r = e.getBoundingClientRect();
        return { left: r.left + scrollX, right: r.right + scrollX, top: r.top + scrollY, width: r.width };
      });
    for (const width of [390, 1280, 1920]) {
      await page.setViewport({ width, height: width === 390 ? 844 : 1000, hasTouch: true });
      await page.waitForFunction((w) => innerWidth === w, {}, width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const panes = await Promise.all(["#structure", "#properties", "#preview"].map(box));
      for (const pane of panes) expect(pane.right).toBeLessThanOrEqual(width);
      const frames = await Promise.all(['iframe[data-testid="desktop-frame"]', 'iframe[data-testid="phone-frame"]'].map((f) => box(`figure:has(${f})`)));
      for (const frame of frames) expect(frame.right).toBeLessThanOrEqual(width);
      if (width === 390) {
        // Stacked: one pane under the other, each the screen's width (less the margins).
        expect(panes[1]!.top).toBeGreaterThan(panes[0]!.top);
        expect(panes[2]!.top).toBeGreaterThan(panes[1]!.top);
        for (const pane of panes) expect(pane.width).toBeGreaterThan(330);
        // By touch: select, add, delete.
        await page.tap('[data-node-path="rows.1.columns.0.children.0"] .node-title');
        await page.waitForSelector('[data-node-path="rows.1.columns.0.children.0"].selected');
        await page.tap('[data-testid="add-block-divider"]');
        await page.waitForSelector('[data-node-path="rows.1.columns.0.children.1"].selected');
        expect(await page.$eval('[data-node-path="rows.1.columns.0.children.1"]', (e) => e.textContent)).toContain("Divider");
        // The new node has the focus (and is scrolled to) before the next tap.
        await page.waitForFunction(() => document.activeElement?.getAttribute("data-node-path") === "rows.1.columns.0.children.1");
        await page.tap('[data-testid="delete"]');
        await page.waitForFunction(() => !document.querySelector('[data-node-path="rows.1.columns.0.children.1"]')?.textContent?.includes("Divider"));
        await page.tap('[data-testid="jump-preview"]');
        await shot(page, "07-editor-390-preview", false);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      } else {
        // Side by side: tree, form and preview in one row.
        expect(panes[0]!.right).toBeLessThanOrEqual(panes[1]!.left);
        expect(panes[1]!.right).toBeLessThanOrEqual(panes[2]!.left);
      }
      await shot(page, `07-editor-${width}`);
      await shot(page, `07-editor-${width}-screen`, false);
    }
    await page.setViewport({ width: 1600, height: 1000 });
  });

  it("logged no console errors, and no failed API call but the two provoked", () => {
    expect(studio.consoleErrors).toEqual([]);
    expect(studio.failedApiCalls).toEqual(["401 /api/v1/me", "422 /api/v1/templates"]);
  });
});
