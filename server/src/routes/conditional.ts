/** True when an If-None-Match header matches the ETag (weak comparison, as RFC 9110 asks for GET). */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string): string => tag.trim().replace(/^W\//, "");
  const wanted = bare(etag);
  return header.split(",").some((candidate) => candidate.trim() === "*" || bare(candidate) === wanted);
}
