import type { FastifyInstance } from "fastify";
import { validationError } from "../errors.js";

/**
 * JSON is the only body format. Our own parser (instead of Fastify's) so that malformed JSON is a 422
 * `json_invalid` issue with the position, like the FastAPI service.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => parseJson(body, done));
  app.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: "string" }, (_req, body, done) => parseJson(body, done));
}

function parseJson(body: string | Buffer, done: (err: Error | null, value?: unknown) => void): void {
  const text = typeof body === "string" ? body : body.toString("utf8");
  // An empty body with a JSON Content-Type is no body: clients that set the header on every request
  // (DELETE, a body-less rotate) must not be refused. Routes that need a body say `missing`.
  if (text.trim() === "") {
    done(null, undefined);
    return;
  }
  let value: unknown;
  try {
    // `__proto__` keys are refused: template documents are deep-merged over defaults downstream.
    value = text.includes("__proto__") ? JSON.parse(text, rejectProtoKeys) : JSON.parse(text);
  } catch (err) {
    const detail = err instanceof Error ? err.message : "invalid JSON";
    const position = /position (\d+)/.exec(detail)?.[1];
    const loc = position === undefined ? ["body"] : ["body", position];
    done(validationError([{ loc, msg: `JSON decode error: ${detail}`, type: "json_invalid" }]));
    return;
  }
  // Every body of this API is an object. A JSON `null` is refused here because Fastify hands an absent
  // body to the validators as `null` too, and an optional body must not accept it.
  if (value === null) {
    done(validationError([{ loc: ["body"], msg: "Input should be a valid dictionary", type: "dict_type" }]));
    return;
  }
  done(null, value);
}

function rejectProtoKeys(key: string, value: unknown): unknown {
  if (key === "__proto__") throw new SyntaxError("the key '__proto__' is not allowed");
  return value;
}
