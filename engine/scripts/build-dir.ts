import { fileURLToPath } from "node:url";

/** Git-ignored output of the browser checks: compiled react-email modules and screenshots for review. */
export const BUILD_DIR = fileURLToPath(new URL("../build/browser", import.meta.url));
