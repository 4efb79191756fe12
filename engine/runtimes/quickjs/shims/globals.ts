/** Globals the engine expects from Node, injected into the QuickJS bundle by esbuild. */
export { Buffer } from "./buffer.js";
export { process } from "./process.js";
export { TextDecoder, TextEncoder } from "./text-coding.js";
