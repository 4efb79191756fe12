/** Kept equal to engine/package.json's version by a test. */
export const ENGINE_VERSION = "2.0.0";
