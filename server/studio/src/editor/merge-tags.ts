/**
 * The merge-tag picker beside a text, a URL or a rich text: the tags the template already uses (as
 * the engine reads them), and a new one by name. It inserts `{{ name }}` where the caret was.
 */
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";

/** A tag's name as the syntax allows it (engine/src/data/merge-tags.ts): a letter or `_`, then letters, digits, `_`, `-`, dotted parts. */
const TAG_NAME = /^(?:(?:text|url|attr)\.)?[A-Za-z_][\w-]*(?:\.[\w-]+)*$/;

export function tagSource(name: string): string {
  return `{{ ${name} }}`;
}

export function MergeTagPicker({
  tags,
  prop,
  onPick,
  disabled,
}: {
  tags: readonly string[];
  prop: string;
  onPick: (name: string) => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const popover = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!open) return;
    input.current?.focus();
    const close = (e: Event) => {
      if (popover.current && !popover.current.contains(e.target as Node)) setOpen(false);
    };
    addEventListener("pointerdown", close);
    return () => removeEventListener("pointerdown", close);
  }, [open]);
  const valid = TAG_NAME.test(name.trim());
  const pick = (tag: string) => {
    setOpen(false);
    setName("");
    onPick(tag);
  };
  return html`
    <div class="merge-picker" ref=${popover}>
      <button
        type="button"
        class="small"
        data-testid=${`merge-tag-${prop}`}
        aria-expanded=${open}
        aria-haspopup="dialog"
        disabled=${disabled}
        title="Insert a merge tag"
        onMouseDown=${(e: Event) => e.preventDefault()}
        onClick=${() => setOpen(!open)}
      >{{ }}</button>
      ${
        open &&
        html`<div class="popover" role="dialog" aria-label="Insert a merge tag" onKeyDown=${(e: KeyboardEvent) => {
          if (e.key === "Escape") setOpen(false);
        }}>
          ${
            tags.length > 0
              ? html`<div class="tag-list">${tags.map(
                  (tag) =>
                    html`<button type="button" class="small tag" data-merge-tag=${tag} onMouseDown=${(e: Event) => e.preventDefault()} onClick=${() => pick(tag)}>${tag}</button>`,
                )}</div>`
              : html`<p class="muted">This template uses no merge tag yet.</p>`
          }
          <form
            class="new-tag"
            onSubmit=${(e: Event) => {
              e.preventDefault();
              if (valid) pick(name.trim());
            }}
          >
            <label>New tag <input data-testid="merge-tag-new" value=${name} placeholder="first_name" spellcheck=${false} autocomplete="off"
              ref=${input}
              onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} /></label>
            <button type="submit" class="small" disabled=${!valid}>Insert</button>
          </form>
          ${name.trim() !== "" && !valid && html`<p class="bad small-text">A tag name starts with a letter or _, then letters, digits, _ or -.</p>`}
        </div>`
      }
    </div>
  `;
}
