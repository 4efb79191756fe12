/**
 * Every render fixture as the pages a reader's client receives: the golden html, and the golden
 * react-email module compiled with esbuild and rendered with `@react-email/render`. The goldens are
 * what the engine renders (test/fixtures.test.ts checks that), so checking them checks the engine.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { render as renderEmail } from "@react-email/render";
import { transform } from "esbuild";
import { createElement, type FunctionComponent } from "react";
import { BUILD_DIR } from "./build-dir.js";
import { type FixtureCase, listCases, readExpected } from "./fixture-cases.js";

export interface FixtureDocuments {
  readonly fixture: FixtureCase;
  readonly html: string;
  /** The react-email output rendered to HTML. */
  readonly reactHtml: string;
}

// Inside the repository, so that the modules' imports resolve from node_modules.
const MODULES_DIR = `${BUILD_DIR}/modules`;

export async function reactEmailToHtml(name: string, source: string): Promise<string> {
  mkdirSync(MODULES_DIR, { recursive: true });
  const { code } = await transform(source, { loader: "tsx", jsx: "automatic", format: "esm", target: "es2022" });
  const file = `${MODULES_DIR}/${name}.mjs`;
  writeFileSync(file, code);
  const module = (await import(pathToFileURL(file).href)) as { default: FunctionComponent };
  return renderEmail(createElement(module.default));
}

export async function fixtureDocuments(only?: (name: string) => boolean): Promise<FixtureDocuments[]> {
  const cases = listCases("render").filter((c) => !only || only(c.name));
  return Promise.all(
    cases.map(async (fixture) => ({
      fixture,
      html: readExpected(fixture, "html"),
      reactHtml: await reactEmailToHtml(fixture.name, readExpected(fixture, "react-email")),
    })),
  );
}
