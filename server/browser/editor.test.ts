/**
 * The studio's editor as a user drives it, in Debian's chromium through puppeteer-core: the
 * `realistic-password-reset` golden case built from an empty template through the editor only (tree,
 * palette, forms, rich text, merge-tag picker), saved, and its stored template rendering the golden
 * html byte for byte; undo and redo; a change saved from a second tab meanwhile (the choice between
 * theirs and mine); adding, moving and deleting by keyboard only; the previews' widths, dark scheme
 * and targets. Any console error of a page fails the test.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { render } from "@mailrender/engine";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, editorJson, fill, pickTag, prop, type Studio, shot, signIn, startStudio } from "./studio-page.js";

const CASE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/render/realistic-password-reset");
const fixture = JSON.parse(readFileSync(path.join(CASE, "case.json"), "utf8")) as {
  dynamic_data: Record<string, unknown>;
  options: { minify: boolean; strict: boolean };
};

let studio: Studio;
let page: Page;
/** The template the editor built and saved. */
let templateId = "";

const node = (p: string) => `[data-node-path="${p}"]`;

interface Block {
  componentType: string;
  props: Record<string, unknown>;
}

/** The blocks of a row's first column (every row here has one column). */
function blocksOf(doc: Record<string, unknown>, row: number): Block[] {
  return (doc["rows"] as { columns: { children: Block[] }[] }[])[row]!.columns[0]!.children;
}

async function selectNode(p: string): Promise<void> {
  await page.click(`${node(p)} .node-title`);
  await page.waitForSelector(`${node(p)}.selected`);
}

/** Types into the selected block's rich text, replacing what it holds. */
async function replaceRichText(text: string): Promise<void> {
  await fill(page, prop("content"), text);
}

async function frameHas(text: string): Promise<void> {
  await page.waitForFunction((t) => (document.querySelector('iframe[data-testid="desktop-frame"]') as HTMLIFrameElement | null)?.srcdoc.includes(t), {}, text);
}

async function storedTemplate(): Promise<Record<string, unknown>> {
  const { json } = await apiCall(studio.server, "GET", `/api/v1/templates/${templateId}`, studio.server.adminKey);
  return json.template as Record<string, unknown>;
}

beforeAll(async () => {
  studio = await startStudio();
  page = await studio.open(1600, 1000);
});

afterAll(async () => {
  await studio?.close();
});

describe("the studio's editor in chromium", () => {
  it("builds the realistic-password-reset email through the editor only, saves it, and the stored template renders the golden html", async () => {
    await signIn(page, `${studio.server.url}/studio`, studio.server.adminKey);
    await page.type('[data-testid="new-template-name"]', "Reset your password");
    await page.click('[data-testid="new-template"]');
    await page.waitForSelector('[data-testid="add-row-1"]');
    expect(await page.$eval('[data-testid="save-state"]', (e) => e.textContent)).toContain("Not saved yet");

    // The email: its page background and preheader (with a merge tag from the picker, typing on after it).
    await page.waitForSelector(`${node("canvas")}.selected`);
    await fill(page, prop("bodyBackgroundColor"), "#f4f4f6");
    await fill(page, prop("preheaderText"), "Reset the password of your Acme account. The link works for ");
    await pickTag(page, "preheaderText", "expires_in");
    await page.keyboard.type(".");

    // Row 1: the logo.
    await page.click('[data-testid="add-row-1"]');
    await page.waitForSelector(`${node("rows.0")}.selected`);
    for (const [side, px] of [
      ["top", 24],
      ["right", 24],
      ["bottom", 8],
      ["left", 24],
    ] as const)
      await fill(page, prop(`padding.${side}`), String(px));
    await page.click('[data-testid="add-block-image"]');
    await page.waitForSelector(`${node("rows.0.columns.0.children.0")}.selected`);
    await fill(page, prop("src"), "https://example.com/brand/acme-logo.png");
    await fill(page, prop("alt"), "Acme");
    await fill(page, prop("width"), "25");
    await page.select(prop("align"), "left");

    // Row 2: heading, paragraph, button, note.
    await page.click('[data-testid="add-row-1"]');
    await page.waitForSelector(`${node("rows.1")}.selected`);
    for (const [side, px] of [
      ["top", 8],
      ["right", 24],
      ["bottom", 24],
      ["left", 24],
    ] as const)
      await fill(page, prop(`padding.${side}`), String(px));

    await page.click('[data-testid="add-block-heading"]');
    await page.waitForSelector(`${node("rows.1.columns.0.children.0")}.selected`);
    await replaceRichText("Reset your password");
    await page.select(prop("level"), "h1");
    await fill(page, prop("fontSize"), "26");
    await fill(page, prop("color"), "#1b1b1f");

    await page.click('[data-testid="add-block-paragraph"]');
    await page.waitForSelector(`${node("rows.1.columns.0.children.1")}.selected`);
    await replaceRichText("Hi ");
    await pickTag(page, "content", "first_name");
    await page.keyboard.type(", someone asked to reset the password of the Acme account for ");
    await pickTag(page, "content", "email");
    await page.keyboard.type(". If it was you, choose a new one below; the link works for ");
    // A tag the template already uses: offered in the picker.
    await pickTag(page, "content", "expires_in");
    await page.keyboard.type(".");
    // The email address in bold: its chip selected by a click, then Ctrl+B.
    await page.click(`${prop("content")} .merge-chip[data-source="{{ email }}"]`);
    await page.keyboard.down("Control");
    await page.keyboard.press("KeyB");
    await page.keyboard.up("Control");
    await fill(page, prop("fontSize"), "15");
    await fill(page, prop("color"), "#3f3f46");
    await fill(page, prop("margin.top"), "8");

    await page.click('[data-testid="add-block-button"]');
    await page.waitForSelector(`${node("rows.1.columns.0.children.2")}.selected`);
    await fill(page, prop("text"), "Choose a new password");
    await fill(page, prop("link"), "");
    await pickTag(page, "link", "reset_url");
    await fill(page, prop("backgroundColor"), "#4f46e5");
    await fill(page, prop("color"), "#ffffff");
    await page.select(prop("align"), "left");
    await fill(page, prop("margin.top"), "20");
    await fill(page, prop("margin.bottom"), "20");
    await fill(page, prop("borderRadius"), "6");

    await page.click('[data-testid="add-block-paragraph"]');
    await page.waitForSelector(`${node("rows.1.columns.0.children.3")}.selected`);
    await replaceRichText("If you did not ask for this, ignore this email: your password stays as it is.");
    await fill(page, prop("fontSize"), "13");
    await fill(page, prop("color"), "#6b6b76");

    expect(await page.$eval('[data-testid="save-state"]', (e) => e.textContent)).toContain("Not saved yet");
    await page.click('[data-testid="save"]');
    await page.waitForFunction(() => /^\/studio\/templates\/[0-9a-f-]{36}$/.test(location.pathname));
    templateId = (await page.evaluate(() => location.pathname)).split("/").at(-1)!;
    await page.waitForFunction(() => document.querySelector('[data-testid="save-state"]')?.textContent?.startsWith("Saved"));
    await shot(page, "10-editor-built");

    // The stored template renders the golden html (and plain text) byte for byte: the ids differ, the output does not.
    const template = await storedTemplate();
    const result = await render(template, { target: "html", dynamicData: fixture.dynamic_data, ...fixture.options, plainText: true });
    expect(result.output).toBe(readFileSync(path.join(CASE, "expected.html"), "utf8"));
    expect(result.text).toBe(readFileSync(path.join(CASE, "expected.txt"), "utf8"));
    expect(result.warnings).toEqual([]);
  });

  it("undoes and redoes, and keeps the selection", async () => {
    await selectNode("rows.1.columns.0.children.0");
    await fill(page, prop("color"), "#ff0000");
    await page.select(prop("level"), "h2");
    expect(await page.$eval('[data-testid="save-state"]', (e) => e.textContent)).toContain("Unsaved changes");
    const heading = async () => blocksOf(await editorJson(page), 1)[0]!.props;
    expect(await heading()).toMatchObject({ color: "#ff0000", level: "h2" });
    await page.click('[data-testid="undo"]');
    expect(await heading()).toMatchObject({ color: "#ff0000", level: "h1" });
    // The colour typed in one go is one step.
    await page.click('[data-testid="undo"]');
    expect(await heading()).toMatchObject({ color: "#1b1b1f", level: "h1" });
    expect(await page.$eval('[data-testid="save-state"]', (e) => e.textContent)).toMatch(/^Saved/);
    await page.click('[data-testid="redo"]');
    await page.click('[data-testid="redo"]');
    expect(await heading()).toMatchObject({ color: "#ff0000", level: "h2" });
    expect(await page.$(`${node("rows.1.columns.0.children.0")}.selected`)).not.toBeNull();
    // Ctrl+Z from the tree, twice: back to what is saved.
    await page.focus(node("rows.1.columns.0.children.0"));
    for (let i = 0; i < 2; i++) {
      await page.keyboard.down("Control");
      await page.keyboard.press("KeyZ");
      await page.keyboard.up("Control");
    }
    expect(await heading()).toMatchObject({ color: "#1b1b1f", level: "h1" });
  });

  it("keeps an unsaved change as a draft through a reload", async () => {
    await selectNode("rows.1.columns.0.children.2");
    await fill(page, prop("text"), "Choose a new password now");
    await page.reload({ waitUntil: "networkidle0" });
    await page.waitForSelector('[data-testid="notice"]');
    expect(await page.$eval('[data-testid="save-state"]', (e) => e.textContent)).toContain("Unsaved changes");
    expect(blocksOf(await editorJson(page), 1)[2]!.props["text"]).toBe("Choose a new password now");
  });

  it("asks before overwriting a change saved from a second tab: load theirs, or overwrite with mine", async () => {
    // Someone else, in a browser of their own.
    const other = await studio.open(1280, 900, true);
    await signIn(other, `${studio.server.url}/studio/templates/${templateId}`, studio.server.adminKey);
    await other.waitForSelector(node("rows.1.columns.0.children.0"));
    await other.click(`${node("rows.1.columns.0.children.0")} .node-title`);
    await fill(other, prop("content"), "Reset your Acme password");
    await other.click('[data-testid="save"]');
    await other.waitForFunction(() => document.querySelector('[data-testid="save-state"]')?.textContent?.includes("version 2"));

    // This tab still has the draft made on version 1: saving it asks.
    await page.bringToFront();
    await page.click('[data-testid="save"]');
    await page.waitForSelector('[data-testid="conflict"]');
    await shot(page, "11-conflict");
    expect(blocksOf(await storedTemplate(), 1)[0]!.props["content"]).toBe("Reset your Acme password");
    await page.click('[data-testid="conflict-reload"]');
    await page.waitForSelector('[data-testid="conflict"]', { hidden: true });
    const theirs = blocksOf(await editorJson(page), 1);
    expect(theirs[0]!.props["content"]).toBe("Reset your Acme password");
    expect(theirs[2]!.props["text"]).toBe("Choose a new password");
    // Undo brings mine back; saving now replaces theirs knowingly (the ETag is theirs).
    await page.click('[data-testid="undo"]');
    expect(blocksOf(await editorJson(page), 1)[2]!.props["text"]).toBe("Choose a new password now");

    // The other tab saves again meanwhile: this time, overwrite.
    await other.bringToFront();
    await fill(other, prop("content"), "Reset your password, please");
    await other.click('[data-testid="save"]');
    await other.waitForFunction(() => document.querySelector('[data-testid="save-state"]')?.textContent?.includes("version 3"));
    await page.bringToFront();
    await page.click('[data-testid="save"]');
    await page.waitForSelector('[data-testid="conflict"]');
    await page.click('[data-testid="conflict-overwrite"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="save-state"]')?.textContent?.includes("version 4"));
    const stored = blocksOf(await storedTemplate(), 1);
    expect(stored[0]!.props["content"]).toBe("Reset your password");
    expect(stored[2]!.props["text"]).toBe("Choose a new password now");
    await other.browserContext().close();
    await page.bringToFront();
  });

  it("adds, moves and deletes by keyboard only", async () => {
    // From the selected node in the tree, Tab reaches the palette; Enter adds; the focus comes back to the new node.
    await selectNode("rows.1.columns.0.children.1");
    await page.focus(node("rows.1.columns.0.children.1"));
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(() => document.activeElement?.getAttribute("data-testid") === "add-block-divider");
    }
    expect(reached).toBe(true);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-node-path") === "rows.1.columns.0.children.2");
    const types = async () => blocksOf(await editorJson(page), 1).map((b) => b.componentType);
    expect(await types()).toEqual(["heading", "paragraph", "divider", "button", "paragraph"]);
    await page.focus(node("rows.1.columns.0.children.2"));
    await page.keyboard.down("Alt");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.up("Alt");
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-node-path") === "rows.1.columns.0.children.0");
    expect(await types()).toEqual(["divider", "heading", "paragraph", "button", "paragraph"]);
    await page.focus(node("rows.1.columns.0.children.0"));
    await page.keyboard.press("Delete");
    // The focus stays in the tree, on the node that took the deleted one's place.
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-node-path") === "rows.1.columns.0.children.0");
    expect(await types()).toEqual(["heading", "paragraph", "button", "paragraph"]);
    // Ctrl+D duplicates the focused node (with fresh ids), Delete takes the copy away again.
    await page.focus(node("rows.1.columns.0.children.0"));
    await page.keyboard.down("Control");
    await page.keyboard.press("KeyD");
    await page.keyboard.up("Control");
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-node-path") === "rows.1.columns.0.children.1");
    const copied = blocksOf(await editorJson(page), 1) as unknown as { id: string; componentType: string }[];
    expect(copied.map((b) => b.componentType)).toEqual(["heading", "heading", "paragraph", "button", "paragraph"]);
    expect(copied[1]!.id).not.toBe(copied[0]!.id);
    await page.focus(node("rows.1.columns.0.children.1"));
    await page.keyboard.press("Delete");
    expect(await types()).toEqual(["heading", "paragraph", "button", "paragraph"]);
  });

  it("moves a block by dragging its handle in the tree, and from the palette into a column", async () => {
    const types = async () => blocksOf(await editorJson(page), 1).map((b) => b.componentType);
    const centre = async (selector: string, dy = 0) => {
      const box = (await (await page.$(selector))!.boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 + dy * box.height };
    };
    const dragTo = async (from: string, to: string, dy: number) => {
      const start = await centre(from);
      const end = await centre(to, dy);
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      await page.mouse.move(start.x, start.y + 10, { steps: 2 });
      await page.mouse.move(end.x, end.y, { steps: 8 });
      await page.mouse.up();
    };
    // The last paragraph onto the upper half of the heading: it goes before it.
    await dragTo(`${node("rows.1.columns.0.children.3")} .handle`, node("rows.1.columns.0.children.0"), -0.3);
    await page.waitForSelector(`${node("rows.1.columns.0.children.0")}.selected`);
    expect(await types()).toEqual(["paragraph", "heading", "paragraph", "button"]);
    // A divider from the palette onto the lower half of the button: after it.
    await dragTo('[data-testid="add-block-divider"]', node("rows.1.columns.0.children.3"), 0.3);
    await page.waitForSelector(`${node("rows.1.columns.0.children.4")}.selected`);
    expect(await types()).toEqual(["paragraph", "heading", "paragraph", "button", "divider"]);
    await page.click('[data-testid="undo"]');
    await page.click('[data-testid="undo"]');
    expect(await types()).toEqual(["heading", "paragraph", "button", "paragraph"]);
  });

  it("nests a row of two columns in a column, with a block in it, as the format allows", async () => {
    await selectNode("rows.1.columns.0");
    await page.click('[data-testid="add-nested-row-2"]');
    const nested = "rows.1.columns.0.children.4";
    await page.waitForSelector(`${node(nested)}.selected`);
    await selectNode(`${nested}.columns.1`);
    await page.click('[data-testid="add-block-paragraph"]');
    await page.waitForSelector(`${node(`${nested}.columns.1.children.0`)}.selected`);
    await fill(page, prop("content"), "Beside the first column");
    const row = blocksOf(await editorJson(page), 1)[4] as unknown as { type: string; columns: { width: number; children: Block[] }[] };
    expect(row.type).toBe("row");
    expect(row.columns.map((c) => c.width)).toEqual([50, 50]);
    expect(row.columns[1]!.children[0]!.props["content"]).toBe("<p>Beside the first column</p>");
    await frameHas("Beside the first column");
    for (let i = 0; i < 3; i++) await page.click('[data-testid="undo"]');
    expect(blocksOf(await editorJson(page), 1)).toHaveLength(4);
  });

  it("previews at the widths of phones and desktops, in the dark scheme, and as React Email, MJML and plain text", async () => {
    const frameWidth = (id: string) => page.$eval(`iframe[data-testid="${id}"]`, (f) => (f as HTMLIFrameElement).contentWindow!.innerWidth);
    await page.waitForFunction(() =>
      (document.querySelector('iframe[data-testid="desktop-frame"]') as HTMLIFrameElement | null)?.srcdoc.includes("Reset your"),
    );
    for (const [testId, frame, px] of [
      ["width-320", "phone-frame", 320],
      ["width-414", "phone-frame", 414],
      ["width-600", "desktop-frame", 600],
    ] as const) {
      await page.click(`[data-testid="${testId}"]`);
      await page.waitForFunction(
        (f, w) => (document.querySelector(`iframe[data-testid="${f}"]`) as HTMLIFrameElement).contentWindow!.innerWidth === w,
        {},
        frame,
        px,
      );
      expect(await frameWidth(frame)).toBe(px);
    }
    await fill(page, '[data-testid="width-custom"]', "360");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => (document.querySelector('iframe[data-testid="phone-frame"]') as HTMLIFrameElement).contentWindow!.innerWidth === 360);

    // Dark: a dark page colour on the email's Dark mode tab; in the dark scheme its dark rules apply in the frame.
    await selectNode("canvas");
    await page.click('[data-testid="tab-dark"]');
    await fill(page, prop("dark.bodyBackgroundColor"), "#111114");
    await page.click('[data-testid="tab-settings"]');
    const background = () =>
      page.$eval('iframe[data-testid="desktop-frame"]', (f) => {
        const doc = (f as HTMLIFrameElement).contentDocument!;
        return getComputedStyle(doc.body).backgroundColor;
      });
    const light = await background();
    await page.click('[data-testid="scheme-dark"]');
    await page.waitForFunction(
      (before) => {
        const doc = (document.querySelector('iframe[data-testid="desktop-frame"]') as HTMLIFrameElement).contentDocument;
        return doc?.body && getComputedStyle(doc.body).backgroundColor !== before;
      },
      {},
      light,
    );
    expect(await background()).toBe("rgb(17, 17, 20)");
    await shot(page, "12-dark");
    await page.click('[data-testid="scheme-light"]');

    // A row's dark gradient: the gradient field on its Dark tab, written into its dark object (then switched off).
    await selectNode("rows.1");
    await page.click('[data-testid="tab-dark"]');
    await page.click(prop("dark.backgroundGradient.useGradient"));
    const rows = (await editorJson(page))["rows"] as { dark?: { backgroundGradient?: unknown } }[];
    expect(rows[1]?.dark?.backgroundGradient).toMatchObject({ useGradient: true, gradient: { type: "linear" } });
    await page.click('[data-testid="tab-dark"]');
    await page.click(prop("dark.backgroundGradient.useGradient"));
    await page.click('[data-testid="tab-settings"]');

    // A phone override from the heading's Phone tab: smaller on the phone, as it was on the desktop.
    const headingSize = (frame: string) =>
      page.$eval(`iframe[data-testid="${frame}"]`, (f) => getComputedStyle((f as HTMLIFrameElement).contentDocument!.querySelector("h1")!).fontSize);
    await selectNode("rows.1.columns.0.children.0");
    await page.click('[data-testid="tab-phone"]');
    await fill(page, prop("mobile.fontSize"), "20");
    expect(blocksOf(await editorJson(page), 1)[0]!.props["mobile"]).toEqual({ fontSize: 20 });
    await page.click('[data-testid="tab-phone"]');
    await page.waitForFunction(() => {
      const h1 = (document.querySelector('iframe[data-testid="phone-frame"]') as HTMLIFrameElement).contentDocument?.querySelector("h1");
      return h1 && getComputedStyle(h1).fontSize === "20px";
    });
    // (At 600 px the desktop frame is at the breakpoint, where the phone's values apply too.)
    await page.click('[data-testid="width-800"]');
    await page.waitForFunction(() => (document.querySelector('iframe[data-testid="desktop-frame"]') as HTMLIFrameElement).contentWindow!.innerWidth === 800);
    expect(await headingSize("desktop-frame")).toBe("26px");
    await page.click('[data-testid="tab-settings"]');

    for (const target of ["react-email", "mjml"]) {
      await page.click(`[data-testid="target-${target}"]`);
      await page.waitForFunction(() =>
        (document.querySelector('iframe[data-testid="desktop-frame"]') as HTMLIFrameElement | null)?.srcdoc.includes("Choose a new password now"),
      );
    }
    await page.click('[data-testid="target-text"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="plain-text"]')?.textContent?.includes("Choose a new password now"));
    await page.click('[data-testid="target-html"]');
  });

  it("lists the checks' findings beside the preview, each a link to its block", async () => {
    await selectNode("rows.1.columns.0.children.2");
    await fill(page, prop("link"), "");
    const finding = await page.waitForSelector('[data-testid="findings"] [data-finding-path="rows.1.columns.0.children.2.props.link"]');
    expect(await finding!.evaluate((b) => b.textContent)).toContain("no link");
    // The same finding stands under the field it is about, in the block's form.
    const underField = await page.waitForSelector('[data-finding-prop="link"]');
    expect(await underField!.evaluate((p) => p.textContent)).toContain("no link");
    await selectNode("canvas");
    await finding!.click();
    await page.waitForSelector(`${node("rows.1.columns.0.children.2")}.selected`);
    expect(await page.$(`${node("rows.1.columns.0.children.2")} .badge.warn`)).not.toBeNull();
    await page.click('[data-testid="undo"]');
    await page.waitForSelector('[data-finding-path="rows.1.columns.0.children.2.props.link"]', { hidden: true });
    // What keeps the template from rendering (the service's 422 issue, with its path) stands under its field too.
    await fill(page, prop("color"), "not a colour");
    const refused = await page.waitForSelector('[data-finding-prop="color"].error');
    expect(await refused!.evaluate((p) => p.textContent?.trim())).not.toBe("");
    await page.click('[data-testid="undo"]');
    await page.waitForSelector('[data-finding-prop="color"]', { hidden: true });
  });

  it("builds a visibility rule and a group, and explains with the sample data whether the block shows", async () => {
    await selectNode("rows.1.columns.0.children.3");
    await page.click(prop("visibility.enabled"));
    await fill(page, prop("visibility.rules.0.tag"), "plan");
    await page.select(prop("visibility.rules.0.operator"), "in");
    await fill(page, prop("visibility.rules.0.value"), "pro, team");
    await page.waitForFunction(() => document.querySelector('[data-testid="visibility-explanation"]')?.textContent?.includes("hidden"));
    await page.click('[data-testid="visibility-add-group"]');
    await page.select(prop("visibility.match"), "any");
    await fill(page, prop("visibility.groups.0.rules.0.tag"), "beta");
    await page.select(prop("visibility.groups.0.rules.0.operator"), "is_not_empty");
    expect(blocksOf(await editorJson(page), 1)[3]!.props["visibility"]).toEqual({
      match: "any",
      enabled: true,
      rules: [{ tag: "plan", operator: "in", value: "pro, team" }],
      groups: [{ match: "any", rules: [{ tag: "beta", operator: "is_not_empty", value: "" }] }],
    });
    expect(await page.$(`${node("rows.1.columns.0.children.3")} .badge`)).not.toBeNull();
    // The sample's context decides: a "team" plan shows the block.
    await page.$eval(
      "#sample-data",
      (t, text) => {
        const area = t as HTMLTextAreaElement;
        area.value = text;
        area.dispatchEvent(new Event("input", { bubbles: true }));
      },
      JSON.stringify({ ...fixture.dynamic_data, context: { plan: "team" } }),
    );
    await page.waitForFunction(() => document.querySelector('[data-testid="visibility-explanation"]')?.textContent?.includes("shown"));
    await shot(page, "13-visibility");
  });

  it("logged no console errors, and no failed API call but the conflicts and the invalid colour provoked", () => {
    expect(studio.consoleErrors).toEqual([]);
    // The colour is typed a key at a time: each preview made of a partial value is refused too.
    const refusedPreview = (call: string): boolean => call === "422 /api/v1/studio/preview";
    expect(studio.failedApiCalls.filter(refusedPreview).length).toBeGreaterThan(0);
    expect(studio.failedApiCalls.filter((call) => !refusedPreview(call))).toEqual([
      `412 /api/v1/templates/${templateId}`,
      `412 /api/v1/templates/${templateId}`,
    ]);
  });
});
