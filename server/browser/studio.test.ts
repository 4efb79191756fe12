/**
 * The studio as a user drives it, in Debian's chromium through puppeteer-core: sign in with the
 * admin key, upload a fixture's template from a file, edit its sample data and see the desktop and
 * phone previews change, see the validation issues of a broken template, and that another site cannot
 * frame it; a viewer key opens a shared link read-only, an SDK key is turned away. Screenshots go to
 * server/browser/screenshots/ (git-ignored) for review. Any console error of the page fails the test.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test/helpers/databases.js";
import { startTestServer, type TestServer } from "../test/helpers/server.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCREENSHOTS = path.join(HERE, "screenshots");
const FIXTURE = path.join(HERE, "../../fixtures/render/realistic-receipt/case.json");
const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

let db: TestDatabase;
let server: TestServer;
let browser: Browser;
let page: Page;
let profile: string;
const consoleErrors: string[] = [];
/** Chromium logs every API answer >= 400 as a console error; the test provokes some on purpose. */
const failedApiCalls: string[] = [];

function recordConsoleError(text: string, url: string | undefined): void {
  if (!text.startsWith("Failed to load resource")) consoleErrors.push(`console: ${text} (${url ?? ""})`);
  // The emails' images point at example.com, which an offline machine cannot load: not the page's errors.
  else if (url?.startsWith(server.url)) failedApiCalls.push(`${/status of (\d+)/.exec(text)?.[1] ?? text} ${url.slice(server.url.length)}`);
}

async function frameText(testId: string): Promise<string> {
  const handle = (await page.waitForSelector(`iframe[data-testid="${testId}"]`)) as ElementHandle<HTMLIFrameElement>;
  return handle.evaluate((frame) => frame.srcdoc);
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  db = await createTestDatabase("sqlite");
  server = await startTestServer({ database: db.config });
  profile = mkdtempSync(path.join(tmpdir(), "mailrender-studio-chromium-"));
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1600, height: 1000 });
  page.on("console", (message) => {
    if (message.type() === "error") recordConsoleError(message.text(), message.location().url);
  });
  page.on("pageerror", (error) => consoleErrors.push(`page error: ${error instanceof Error ? error.message : String(error)}`));
});

afterAll(async () => {
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await server?.close();
  await db?.drop();
});

describe("studio in chromium", () => {
  it("signs in with the admin key, by keyboard", async () => {
    await page.goto(`${server.url}/studio`, { waitUntil: "networkidle0" });
    await page.waitForSelector('[data-testid="api-key"]');
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("api-key");
    await page.keyboard.type(`sk_live_${"0".repeat(64)}`);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector('[role="alert"]')?.textContent?.includes("not recognised"));
    await page.click("#api-key", { count: 3 });
    await page.keyboard.type(server.adminKey);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#list-title");
    expect(await page.evaluate(() => sessionStorage.getItem("mailrender.apiKey"))).toBe(server.adminKey);
    expect(await page.$eval('[data-testid="signed-in-as"]', (e) => e.textContent)).toBe("bootstrap-admin · admin");
    await shot("01-signed-in");
  });

  it("uploads a fixture's template from a file and previews it on desktop and phone", async () => {
    const file = path.join(profile, "order-confirmation.json");
    writeFileSync(file, JSON.stringify((JSON.parse(readFileSync(FIXTURE, "utf8")) as { template: unknown }).template));
    const input = (await page.waitForSelector('input[data-testid="new-template-file"]')) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(file);
    await page.waitForFunction(() => /^\/studio\/templates\/[0-9a-f-]{36}$/.test(location.pathname));
    await page.waitForSelector('iframe[data-testid="phone-frame"]');
    expect(await page.$eval("#template-title", (h) => h.textContent)).toContain("confirmed");
    // Pre-filled sample data: every tag the template uses, with its name as the placeholder.
    const sample = JSON.parse(await page.$eval("#sample-data", (t) => (t as HTMLTextAreaElement).value)) as { merge_tags: { text: Record<string, string> } };
    expect(sample.merge_tags.text["first_name"]).toBe("first name");
    expect(await frameText("desktop-frame")).toContain("Thanks for your order, first name!");
    expect(await page.$eval('[data-testid="plain-text"]', (p) => p.textContent)).toContain("Thanks for your order, first name!");
    expect(await page.$eval('[data-testid="size"]', (p) => p.textContent)).toMatch(/KB of Gmail's 102\.0 KB clipping limit/);
    await shot("02-uploaded");
  });

  it("edits the sample data and sees both previews change, then keeps it after a reload", async () => {
    const data = { merge_tags: { text: { first_name: "Zelda", order_number: "Z-42" } }, context: { shipping_method: "", gift_message: "" } };
    await page.focus("#sample-data");
    await page.keyboard.down("Control");
    await page.keyboard.press("KeyA");
    await page.keyboard.up("Control");
    await page.keyboard.press("Backspace");
    await page.keyboard.type(JSON.stringify(data));
    await page.waitForFunction(() =>
      (document.querySelector('iframe[data-testid="phone-frame"]') as HTMLIFrameElement | null)?.srcdoc.includes("Thanks for your order, Zelda!"),
    );
    expect(await frameText("desktop-frame")).toContain("Thanks for your order, Zelda!");
    // The phone frame really lays the email out at 375 px: its document is no wider than the frame.
    const phone = await (await page.$('iframe[data-testid="phone-frame"]'))!.contentFrame();
    const widths = await phone.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.doc).toBeLessThanOrEqual(widths.view);
    // Hidden by the empty context: the visibility panel says which rule decided.
    expect(await page.$eval('[data-testid="visibility"]', (t) => t.textContent)).toMatch(/hidden.*rules failed/s);
    await shot("03-sample-edited");
    await page.click("button.primary:not([disabled])::-p-text(Save sample data)");
    await page.waitForFunction(() => document.querySelector('[role="status"]')?.textContent?.startsWith("Saved at"));
    await page.reload({ waitUntil: "networkidle0" });
    await page.waitForFunction(() => (document.querySelector('iframe[data-testid="desktop-frame"]') as HTMLIFrameElement | null)?.srcdoc.includes("Zelda"));
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
    await page.focus("#new-template-paste");
    await page.keyboard.type(JSON.stringify(broken));
    await page.click("button::-p-text(Create template)");
    const issues = await page.waitForSelector('[data-testid="template-problem"] [data-testid="issues"]');
    const text = await issues!.evaluate((ul) => ul.textContent ?? "");
    expect(text).toContain("body.rows.0.columns.0.children.0.props.level");
    expect(text).toContain('in heading "h-bad"');
    await shot("04-validation-issue");
  });

  it("refuses to be framed by another site, while its own previews render", async () => {
    // The previews are srcdoc frames of the studio itself: the anti-framing policy leaves them alone.
    const preview = await (await page.$('iframe[data-testid="desktop-frame"]'))!.contentFrame();
    expect(await preview.evaluate(() => document.body.textContent)).toContain("Zelda");
    const attacker = await browser.newPage();
    try {
      await attacker.setContent(`<iframe id="victim" src="${server.url}/studio" width="800" height="600"></iframe>`, { waitUntil: "load" });
      const framed = attacker.frames().find((f) => f !== attacker.mainFrame());
      // Chromium replaces a refused frame with its error page: the studio's document never loads.
      expect(framed?.url()).not.toBe(`${server.url}/studio`);
    } finally {
      await attacker.close();
    }
  });

  it("a viewer key signs in and opens a shared preview link, with nothing to change offered; an SDK key is turned away", async () => {
    const templatePath = await page.evaluate(() => location.pathname);
    const createKey = async (body: Record<string, unknown>) =>
      (
        (await (
          await fetch(`${server.url}/api/v1/keys`, {
            method: "POST",
            headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
            body: JSON.stringify(body),
          })
        ).json()) as { key: string }
      ).key;
    const viewer = await createKey({ name: "copy-checker", role: "viewer" });
    const sdk = await createKey({ name: "backend", targets: ["html"] });
    await page.click("button::-p-text(Sign out)");
    await page.goto(`${server.url}${templatePath}`, { waitUntil: "networkidle0" });
    await page.type("#api-key", sdk);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector('[role="alert"]')?.textContent?.includes("for the SDK only"));
    await page.click("#api-key", { count: 3 });
    await page.keyboard.type(viewer);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => (document.querySelector('iframe[data-testid="desktop-frame"]') as HTMLIFrameElement | null)?.srcdoc.includes("Zelda"));
    expect(await page.$eval('[data-testid="signed-in-as"]', (e) => e.textContent)).toBe("copy-checker · viewer (read only)");
    const offered = await page.$$eval("button", (buttons) => buttons.map((b) => b.textContent?.trim()));
    for (const action of ["Replace…", "Delete", "Save sample data", "Create template"]) expect(offered).not.toContain(action);
    expect(await page.$("#create-title")).toBeNull();
    // Previews still follow the sample data as the viewer edits it (without saving).
    await page.focus("#sample-data");
    await page.keyboard.down("Control");
    await page.keyboard.press("KeyA");
    await page.keyboard.up("Control");
    await page.keyboard.type(JSON.stringify({ merge_tags: { text: { first_name: "Vera" } } }));
    await page.waitForFunction(() => (document.querySelector('iframe[data-testid="phone-frame"]') as HTMLIFrameElement | null)?.srcdoc.includes("Vera"));
    await shot("05-viewer");
  });

  it("logged no console errors, and no failed API call but the two provoked", () => {
    expect(consoleErrors).toEqual([]);
    expect(failedApiCalls).toEqual(["401 /api/v1/me", "422 /api/v1/templates"]);
  });
});
