import type { FastifyReply } from "fastify";

/**
 * No page of this service may be framed by another site (clickjacking: the studio holds an API key).
 * `frame-ancestors 'none'` for browsers that read CSP, `X-Frame-Options: DENY` for those that do not.
 * The studio's own previews are `srcdoc` frames, which the parent's `frame-ancestors` does not govern,
 * and it frames no page of its own origin, so `'none'` (not `'self'`) costs nothing.
 */
export const FRAME_ANCESTORS = "frame-ancestors 'none'";

/** Adds the anti-framing headers to an HTML answer, keeping any Content-Security-Policy the route set. */
export function forbidFraming(reply: FastifyReply): void {
  const type = reply.getHeader("content-type");
  if (typeof type !== "string" || !type.startsWith("text/html")) return;
  const csp = reply.getHeader("content-security-policy");
  const policy = typeof csp === "string" && csp.trim() !== "" ? csp : undefined;
  if (policy === undefined) reply.header("content-security-policy", FRAME_ANCESTORS);
  else if (!/(^|;)\s*frame-ancestors\s/i.test(policy)) reply.header("content-security-policy", `${policy}; ${FRAME_ANCESTORS}`);
  reply.header("x-frame-options", "DENY");
}
