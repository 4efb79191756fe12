/**
 * Loads a `react-email` output as React Email would: esbuild compiles the `.tsx`, Node imports it,
 * `@react-email/render` renders it. Modules are written inside the repository (so that their imports
 * resolve from node_modules), under a folder the caller removes.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { render as renderEmail } from "@react-email/render";
import { transform } from "esbuild";
import { createElement, type FunctionComponent } from "react";

export interface ModuleFolder {
  readonly dir: string;
  load(name: string, source: string): Promise<FunctionComponent<object>>;
  /** Removes the folder and what was loaded from it. */
  remove(): void;
}

/**
 * `folder` under engine/test/, e.g. ".tmp-react-email" (git-ignored), one per process: a second run
 * of the same suite must not remove the modules of the first.
 */
export function moduleFolder(folder: string): ModuleFolder {
  const dir = fileURLToPath(new URL(`../${folder}-${process.pid}/`, import.meta.url));
  mkdirSync(dir, { recursive: true });
  return {
    dir,
    async load(name, source) {
      const { code } = await transform(source, { loader: "tsx", jsx: "automatic", format: "esm", target: "es2022" });
      const file = `${dir}${name}.mjs`;
      writeFileSync(file, code);
      const module = (await import(pathToFileURL(file).href)) as { default: FunctionComponent<object> };
      return module.default;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The HTML React Email makes of a component given `props`. */
export function renderComponent(component: FunctionComponent<object>, props: object = {}): Promise<string> {
  return renderEmail(createElement(component, props));
}
