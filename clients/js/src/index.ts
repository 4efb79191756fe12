/**
 * @mailrender/client — fetch email templates from the mailrender service, cache them, and render them
 * in-process (merge tags and context never leave this process).
 *
 *   const client = new MailrenderClient({ apiKey: process.env.MAILRENDER_API_KEY });
 *   const html = await client.renderHtml(templateId, { merge_tags: { text: { first_name: "Ada" } } });
 */
export { MailrenderClient } from "./client.js";
export { CLIENT_VERSION, RENDER_TARGETS } from "./constants.js";
export { type ErrorCode, MailrenderError } from "./errors.js";
export type {
  CacheConfig,
  DynamicData,
  MailrenderConfig,
  RenderOptions,
  RenderResult,
  RenderTarget,
  RenderWarning,
  TemplateJson,
  ValidationIssue,
} from "./types.js";
