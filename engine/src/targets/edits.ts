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
  private readonly edits: Edit[] = [];
  /** Whether the edits were marked in order of position (most steps mark one run each, in order). */
  private sorted = true;

  replace(start: number, end: number, text: string): void {
    const last = this.edits[this.edits.length - 1];
    if (last !== undefined && start < last.start) this.sorted = false;
    this.edits.push({ start, end, text });
  }

  remove(start: number, end: number): void {
    this.replace(start, end, "");
  }

  insert(at: number, text: string): void {
    this.replace(at, at, text);
  }

  get size(): number {
    return this.edits.length;
  }

  /** The document with every edit made; the same string when there is none. */
  applyTo(document: string): string {
    if (this.edits.length === 0) return document;
    // A stable sort: edits at one position keep the order they were marked in.
    const edits = this.sorted ? this.edits : this.edits.sort(byStart);
    let out = "";
    let copied = 0;
    for (const { start, end, text } of edits) {
      if (start < copied) continue;
      out += document.slice(copied, start) + text;
      copied = end;
    }
    return out + document.slice(copied);
  }
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const byStart = (a: Edit, b: Edit): number => a.start - b.start;
