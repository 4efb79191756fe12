import { readFileSync } from "node:fs";

/** The package version, read once from package.json (the same file from src/ and lib/). */
export const SERVER_VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
