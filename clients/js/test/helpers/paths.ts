import { fileURLToPath } from "node:url";

/** Paths of the monorepo the tests use (the tests read the shared fixtures in place, never copies). */
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
export const CLIENT_DIR = fileURLToPath(new URL("../../", import.meta.url));
export const SERVER_CLI = `${REPO_ROOT}server/lib/cli.js`;
export const ENGINE_LIB = `${REPO_ROOT}engine/lib/index.js`;
export const FIXTURES_DIR = `${REPO_ROOT}fixtures/`;
