/**
 * Changes to one document that several steps find by reading the same text, applied in one copy.
 * On V8 a document over 128 KiB (the newsletter's html, two bytes a character) is allocated apart
 * at each copy, ~0.12 ms, so steps that each returned a new document paid that, and the next step's
 * read flattened it again (bench/RESULTS.md). Each step marks what it changes; `applyTo` writes the
 * document once.
 *
 * An edit replaces the characters from `start` to `end` with `text`. Edits are applied by position,
 * and at one position in the order they were marked; an edit that starts inside one applied before
 * it is dropped: that one's text is already what the document holds there (a step that removes or
 * rewrites a region whole leaves nothing for another to change inside it).
 */
export class DocumentEdits {
  // In parallel arrays, not an object each: the release engine's QuickJS pays for every object.
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly texts: string[] = [];
  /** Whether the edits were marked in order of position (one step's are; several steps' are not). */
  private inOrder = true;

  replace(start: number, end: number, text: string): void {
    const count = this.starts.length;
    if (count > 0 && start < (this.starts[count - 1] as number)) this.inOrder = false;
    this.starts.push(start);
    this.ends.push(end);
    this.texts.push(text);
  }

  remove(start: number, end: number): void {
    this.replace(start, end, "");
  }

  insert(at: number, text: string): void {
    this.replace(at, at, text);
  }

  get size(): number {
    return this.starts.length;
  }

  /** The document with every edit made; the same string when there is none. */
  applyTo(document: string): string {
    const { starts, ends, texts } = this;
    const count = starts.length;
    if (count === 0) return document;
    const order = this.inOrder ? undefined : orderByPosition(starts);
    let out = "";
    let copied = 0;
    for (let k = 0; k < count; k++) {
      const i = order === undefined ? k : (order[k] as number);
      const start = starts[i] as number;
      if (start < copied) continue;
      out += document.slice(copied, start) + (texts[i] as string);
      copied = ends[i] as number;
    }
    return out + document.slice(copied);
  }
}

/** Above the number of edits of one document (whose length is under 2^30): `start × scale + index` is exact in a double. */
const ORDER_SCALE = 2 ** 22;

/**
 * The edits' indices by position, and at one position in the order they were marked. Sorted as
 * the numbers `start × scale + index` in a typed array, which sorts in C, where a comparator would
 * be a call per comparison: QuickJS runs those in its interpreter (~5 M instructions for the
 * newsletter's ~560 edits).
 */
function orderByPosition(starts: readonly number[]): ArrayLike<number> {
  const count = starts.length;
  if (count >= ORDER_SCALE) return Array.from(starts.keys()).sort((a, b) => (starts[a] as number) - (starts[b] as number) || a - b);
  const keys = new Float64Array(count);
  for (let i = 0; i < count; i++) keys[i] = (starts[i] as number) * ORDER_SCALE + i;
  keys.sort();
  // As integers: QuickJS reads an array at a double's index by its name, a string.
  const order = new Int32Array(count);
  for (let k = 0; k < count; k++) order[k] = (keys[k] as number) % ORDER_SCALE;
  return order;
}
