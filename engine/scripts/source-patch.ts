/**
 * A change the build makes to source it does not own (QuickJS-ng's C, zod's JavaScript in the
 * bundle): `before` replaced by `after`. Applied only where `before` stands exactly once, so a new
 * version of that source is looked at, not patched blindly.
 */
export interface SourcePatch {
  readonly why: string;
  readonly before: string;
  readonly after: string;
}

/** `text` with each patch applied; throws, naming the patch and `where`, when an anchor is not there exactly once. */
export function applyPatches(text: string, patches: readonly SourcePatch[], where: string): string {
  let out = text;
  for (const patch of patches) {
    const found = out.split(patch.before).length - 1;
    if (found !== 1) throw new Error(`patch (${patch.why}): its anchor is in ${where} ${found} times, not once`);
    out = out.replace(patch.before, () => patch.after);
  }
  return out;
}
