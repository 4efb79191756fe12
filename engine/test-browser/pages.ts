/**
 * The pages the browser checks look at: every selected render fixture's html output and its
 * react-email output rendered with `@react-email/render`, written to files once per run (by the
 * global setup), for every engine's worker to read.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { BUILD_DIR } from "../scripts/build-dir.js";
import { type FixtureCase, listCases } from "../scripts/fixture-cases.js";
import { fixtureDocuments } from "../scripts/fixture-documents.js";
import { makeCertificate } from "./page-server.js";

const PAGES_DIR = `${BUILD_DIR}/pages`;

export const TARGETS = ["html", "react-email"] as const;
export type PageTarget = (typeof TARGETS)[number];

/** The render fixtures to check: all, or those whose name matches BROWSER_FIXTURES (a regular expression). */
export function selectedCases(): FixtureCase[] {
  const only = process.env["BROWSER_FIXTURES"] ? new RegExp(process.env["BROWSER_FIXTURES"]) : undefined;
  return listCases("render").filter((c) => !only || only.test(c.name));
}

function pageFile(fixture: string, target: PageTarget): string {
  return `${PAGES_DIR}/${fixture}.${target}.html`;
}

export function readPage(fixture: string, target: PageTarget): string {
  return readFileSync(pageFile(fixture, target), "utf8");
}

/** Vitest's global setup: renders the pages (and the page server's certificate) before any engine starts. */
export default async function writePages(): Promise<void> {
  const names = new Set(selectedCases().map((c) => c.name));
  const documents = await fixtureDocuments((name) => names.has(name));
  rmSync(PAGES_DIR, { recursive: true, force: true });
  mkdirSync(PAGES_DIR, { recursive: true });
  for (const { fixture, html, reactHtml } of documents) {
    writeFileSync(pageFile(fixture.name, "html"), html);
    writeFileSync(pageFile(fixture.name, "react-email"), reactHtml);
  }
  makeCertificate();
}
