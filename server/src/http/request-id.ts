/**
 * Request ids as Fastify makes its own (`req-1`, `req-2`, … in base 36, wrapping below 2^31), from
 * one counter for the requests Fastify routes and those the SDK route's hot path answers, so that no
 * two lines of the log share an id.
 */
export function requestIds(): () => string {
  let last = 0;
  return () => {
    last = (last + 1) & 0x7fffffff;
    return `req-${last.toString(36)}`;
  };
}
