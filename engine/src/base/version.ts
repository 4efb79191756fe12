/** Kept equal to engine/package.json's version by a test. */
export const ENGINE_VERSION = "1.2.0";
