/**
 * What the studio's browser tests share: a real server on SQLite, Debian's chromium through
 * puppeteer-core, a page that fails the test on any console error, and the moves a user makes in the
 * studio (sign in, fill a field, pick a merge tag), all through the test hooks documented in
 * server/README.md ("The studio").
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { createTestDatabase, type TestDatabase } from "../test/helpers/databases.js";
import { startTestServer, type TestServer } from "../test/helpers/server.js";

export const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");
const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

export interface Studio {
  server: TestServer;
  browser: Browser;
  /** Console errors and page errors of every page opened with `open` (none is expected). */
  consoleErrors: string[];
  /** API calls answered >= 400 (chromium logs them as console errors): `"<status> <path>"`. */
  failedApiCalls: string[];
  /** A new tab; `apart`: in a browser context of its own (another person's browser: its own storage). */
  open: (width?: number, height?: number, apart?: boolean) => Promise<Page>;
  close: () => Promise<void>;
}

export async function startStudio(): Promise<Studio> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const db: TestDatabase = await createTestDatabase("sqlite");
  const server = await startTestServer({ database: db.config });
  const profile = mkdtempSync(path.join(tmpdir(), "mailrender-studio-chromium-"));
  const browser = await puppeteer.launch({
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
  const consoleErrors: string[] = [];
  const failedApiCalls: string[] = [];
  const open = async (width = 1600, height = 1000, apart = false): Promise<Page> => {
    const page = apart ? await (await browser.createBrowserContext()).newPage() : await browser.newPage();
    await page.setViewport({ width, height });
    // Well inside the test's own timeout: a wait that fails says which.
    page.setDefaultTimeout(15_000);
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      const url = message.location().url;
      if (!text.startsWith("Failed to load resource")) consoleErrors.push(`console: ${text} (${url ?? ""})`);
      // The emails' images point at example.com, which an offline machine cannot load: not the page's errors.
      else if (url?.startsWith(server.url)) failedApiCalls.push(`${/status of (\d+)/.exec(text)?.[1] ?? text} ${url.slice(server.url.length)}`);
    });
    page.on("pageerror", (error) => consoleErrors.push(`page error: ${error instanceof Error ? error.message : String(error)}`));
    return page;
  };
  const close = async () => {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
    await server.close();
    await db.drop();
  };
  return { server, browser, consoleErrors, failedApiCalls, open, close };
}

export async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
}

/** Signs in on the page at `address` (the sign-in form shows first in a new tab). */
export async function signIn(page: Page, address: string, key: string): Promise<void> {
  await page.goto(address, { waitUntil: "networkidle0" });
  await page.waitForSelector('[data-testid="api-key"]');
  await page.type('[data-testid="api-key"]', key);
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-testid="signed-in-as"]');
}

/** Replaces the value of a text field by typing, as a user does (select all, type). */
export async function fill(page: Page, selector: string, text: string): Promise<void> {
  await page.focus(selector);
  await page.keyboard.down("Control");
  await page.keyboard.press("KeyA");
  await page.keyboard.up("Control");
  if (text === "") await page.keyboard.press("Backspace");
  else await page.keyboard.type(text);
}

/** The form's field for a prop (`padding.top` for a side of a spacing). */
export const prop = (name: string): string => `.properties [data-prop="${name}"]`;

/** Picks a merge tag from the picker beside a field: one the template uses, or a new one by name. */
export async function pickTag(page: Page, field: string, tag: string): Promise<void> {
  await page.click(`[data-testid="merge-tag-${field}"]`);
  await page.waitForSelector('[data-testid="merge-tag-new"]');
  const used = `.popover [data-merge-tag="${tag}"]`;
  // A locator: the list is re-rendered when a preview brings the template's tags.
  if (await page.$(used)) await page.locator(used).click();
  else {
    await page.type('[data-testid="merge-tag-new"]', tag);
    await page.keyboard.press("Enter");
  }
  await page.waitForSelector('[data-testid="merge-tag-new"]', { hidden: true });
  // The caret is back in the field, after the tag: typing goes on there.
  await page.waitForFunction((name) => document.activeElement?.getAttribute("data-prop") === name, {}, field);
}

/** The document as the editor holds it, from the JSON tab (left open on the form tab). */
export async function editorJson(page: Page): Promise<Record<string, unknown>> {
  await page.click('[data-testid="tab-json"]');
  const text = await page.$eval('[data-testid="template-json"]', (e) => (e as HTMLTextAreaElement).value);
  await page.click('[data-testid="tab-form"]');
  return JSON.parse(text) as Record<string, unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
export async function apiCall(server: TestServer, method: string, address: string, key: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server.url}${address}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === "" ? undefined : JSON.parse(text) };
}
