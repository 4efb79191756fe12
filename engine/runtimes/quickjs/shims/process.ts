/**
 * The `process` members the engine library reads, for QuickJS: `getBuiltinModule("node:crypto")`
 * for the render cache's SHA-1 key (src/engine/pipeline.ts), and an empty `env`.
 */
import { base64, sha1 } from "./sha1.js";

const crypto = {
  createHash(algorithm: string) {
    if (algorithm !== "sha1") throw new Error(`createHash: ${algorithm} is not available in this build`);
    let text = "";
    const hash = {
      update(data: string) {
        text += data;
        return hash;
      },
      digest(encoding: string) {
        if (encoding !== "base64") throw new Error(`digest: ${encoding} is not available in this build`);
        return base64(sha1(text));
      },
    };
    return hash;
  },
};

export const process = {
  env: {} as Record<string, string | undefined>,
  getBuiltinModule(name: string): unknown {
    if (name === "node:crypto" || name === "crypto") return crypto;
    throw new Error(`${name} is not available in this build`);
  },
};
