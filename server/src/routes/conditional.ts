/** True when an If-None-Match header matches the ETag (weak comparison, as RFC 9110 asks for GET). */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string): string => tag.trim().replace(/^W\//, "");
  const wanted = bare(etag);
  return header.split(",").some((candidate) => candidate.trim() === "*" || bare(candidate) === wanted);
}

/**
 * The ETags of an If-Match header, compared strongly (RFC 9110: weak tags never match), or undefined
 * when there is no condition (no header, or `*` on a resource that exists).
 */
export function ifMatchEtags(header: string | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  const tags = header.split(",").map((tag) => tag.trim());
  if (tags.includes("*")) return undefined;
  return tags.filter((tag) => tag !== "" && !tag.startsWith("W/"));
}
