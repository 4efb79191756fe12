/**
 * Rich-text editing of a block's content: bold, italic, links and merge tags (chips), in a
 * contenteditable area whose tree is written back as the engine's HTML subset (rich-html.ts) on every
 * change. The browser's editing commands do the bold, italic and links; the studio's own undo
 * (Ctrl+Z) replaces the browser's, so that one history holds every change.
 */
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { MergeTagPicker, tagSource } from "./merge-tags.js";
import { chip, type Markup, toEditable, toHtml } from "./rich-html.js";

interface Props {
  prop: string;
  label: string;
  value: string;
  markup: Markup;
  tags: readonly string[];
  readOnly: boolean;
  onChange: (html: string) => void;
}

/** The selection, if it lies in `root`. */
function rangeIn(root: HTMLElement): Range | null {
  const selection = getSelection();
  if (selection === null || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  return root.contains(range.commonAncestorContainer) ? range : null;
}

function select(range: Range): void {
  const selection = getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/** The chip a range selects exactly, if it does. */
function selectedChip(range: Range): HTMLElement | null {
  const nodes = range.cloneContents().childNodes;
  if (nodes.length !== 1) return null;
  const only = nodes[0];
  if (!(only instanceof HTMLElement) || only.dataset["source"] === undefined) return null;
  const start = range.startContainer.childNodes[range.startOffset];
  return start instanceof HTMLElement && start.dataset["source"] !== undefined ? start : null;
}

export function RichText({ prop, label, value, markup, tags, readOnly, onChange }: Props) {
  const editor = useRef<HTMLDivElement>(null);
  /**
   * The HTML the editor wrote and the document has not come back with yet (typing is faster than
   * rendering): a value among them is the editor's own; any other came from elsewhere (undo, the
   * JSON) and replaces the editor's content.
   */
  const pending = useRef<string[]>([]);
  const shown = useRef<string | null>(null);
  const saved = useRef<Range | null>(null);
  const [linking, setLinking] = useState<{ url: string } | null>(null);

  useEffect(() => {
    const root = editor.current;
    if (root === null) return;
    const own = pending.current.indexOf(value);
    if (own >= 0) {
      pending.current = pending.current.slice(own + 1);
      return;
    }
    pending.current = [];
    if (value === shown.current) return;
    root.replaceChildren(toEditable(value, markup));
    shown.current = value;
  }, [value, markup]);

  useEffect(() => {
    const remember = () => {
      const root = editor.current;
      const range = root ? rangeIn(root) : null;
      if (range) saved.current = range.cloneRange();
    };
    document.addEventListener("selectionchange", remember);
    return () => document.removeEventListener("selectionchange", remember);
  }, []);

  const emit = () => {
    const root = editor.current;
    if (root === null) return;
    const next = toHtml(root, markup);
    if (next === shown.current) return;
    shown.current = next;
    pending.current = [...pending.current.slice(-50), next];
    onChange(next);
  };

  /** Puts the caret back where it was before a toolbar control took the focus. */
  const restore = (): Range | null => {
    const root = editor.current;
    if (root === null) return null;
    // Still in the editor (the toolbar's buttons keep the focus there): the selection is the current one.
    const current = document.activeElement === root ? rangeIn(root) : null;
    if (current) return current;
    root.focus();
    const range = saved.current && root.contains(saved.current.commonAncestorContainer) ? saved.current : null;
    if (range) select(range);
    return range ?? rangeIn(root);
  };

  const command = (name: string, argument?: string) => {
    const range = restore();
    const chipOnly = range ? selectedChip(range) : null;
    if (chipOnly && (name === "bold" || name === "italic")) {
      // A chip alone: the browser's commands leave non-editable content alone, so it is wrapped here.
      const tag = name === "bold" ? /^(strong|b)$/ : /^(em|i)$/;
      const parent = chipOnly.parentElement;
      if (parent && tag.test(parent.localName) && parent.childNodes.length === 1) parent.replaceWith(chipOnly);
      else {
        const wrapper = document.createElement(name === "bold" ? "strong" : "em");
        chipOnly.replaceWith(wrapper);
        wrapper.appendChild(chipOnly);
      }
      const after = document.createRange();
      after.selectNode(chipOnly);
      select(after);
    } else document.execCommand(name, false, argument);
    emit();
  };

  const insertTag = (name: string) => {
    const root = editor.current;
    if (root === null) return;
    const range =
      restore() ??
      (() => {
        const end = document.createRange();
        end.selectNodeContents(root.lastElementChild ?? root);
        end.collapse(false);
        return end;
      })();
    range.deleteContents();
    const node = chip(tagSource(name));
    range.insertNode(node);
    // The caret goes after the chip, in a text node of its own so that typing continues the text.
    const text = document.createTextNode("");
    node.after(text);
    const after = document.createRange();
    after.setStart(text, 0);
    after.collapse(true);
    select(after);
    emit();
  };

  const applyLink = (url: string) => {
    setLinking(null);
    if (url.trim() === "") command("unlink");
    else command("createLink", url.trim());
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && !e.shiftKey && (e.key === "b" || e.key === "B")) {
      e.preventDefault();
      command("bold");
    } else if (mod && !e.shiftKey && (e.key === "i" || e.key === "I")) {
      e.preventDefault();
      command("italic");
    } else if (mod && (e.key === "k" || e.key === "K")) {
      e.preventDefault();
      setLinking({ url: "" });
    } else if (e.key === "Enter" && markup === "inline") {
      // A heading is one line; Shift+Enter breaks it.
      e.preventDefault();
      if (e.shiftKey) {
        document.execCommand("insertLineBreak");
        emit();
      }
    }
  };

  const onClick = (e: MouseEvent) => {
    // A click on a chip selects it whole (to make it bold, or delete it).
    const target = e.target instanceof HTMLElement ? e.target.closest<HTMLElement>(".merge-chip") : null;
    if (target && editor.current?.contains(target)) {
      const range = document.createRange();
      range.selectNode(target);
      select(range);
    }
  };

  const onPaste = (e: ClipboardEvent) => {
    // Pasted text arrives as text: the formatting of another page is not the email's.
    e.preventDefault();
    document.execCommand("insertText", false, e.clipboardData?.getData("text/plain") ?? "");
  };

  const keep = (e: Event) => e.preventDefault();
  const id = `rt-${prop.replace(/\W/g, "-")}`;
  return html`
    <div class="rich-text">
      ${
        !readOnly &&
        html`<div class="toolbar" role="toolbar" aria-label=${`${label}: formatting`}>
        <button type="button" class="small" title="Bold (Ctrl+B)" aria-label="Bold" data-testid="rt-bold" onMouseDown=${keep} onClick=${() => command("bold")}><strong>B</strong></button>
        <button type="button" class="small" title="Italic (Ctrl+I)" aria-label="Italic" data-testid="rt-italic" onMouseDown=${keep} onClick=${() => command("italic")}><em>I</em></button>
        <button type="button" class="small" title="Link (Ctrl+K)" aria-label="Link" data-testid="rt-link" onMouseDown=${keep} onClick=${() => setLinking({ url: "" })}>Link</button>
        <button type="button" class="small" title="Remove the link" aria-label="Remove link" onMouseDown=${keep} onClick=${() => command("unlink")}>Unlink</button>
        ${
          markup === "list" &&
          html`<button type="button" class="small" aria-label="Bulleted list" onMouseDown=${keep} onClick=${() => command("insertUnorderedList")}>• List</button>
          <button type="button" class="small" aria-label="Numbered list" onMouseDown=${keep} onClick=${() => command("insertOrderedList")}>1. List</button>`
        }
        <${MergeTagPicker} tags=${tags} prop=${prop} onPick=${insertTag} />
      </div>`
      }
      ${
        linking &&
        html`<form class="link-form" onSubmit=${(e: Event) => {
          e.preventDefault();
          applyLink(linking.url);
        }}>
          <label>Link to <input data-testid="rt-link-url" value=${linking.url} placeholder="https://… or {{ url_tag }}" autocomplete="off" spellcheck=${false}
            ref=${(el: HTMLInputElement | null) => el && document.activeElement !== el && el.focus()}
            onInput=${(e: Event) => setLinking({ url: (e.target as HTMLInputElement).value })} /></label>
          <button type="submit" class="small">Apply</button>
          <button type="button" class="small" onClick=${() => setLinking(null)}>Cancel</button>
        </form>`
      }
      <div
        ref=${editor}
        id=${id}
        class=${`editable markup-${markup}`}
        data-prop=${prop}
        contenteditable=${readOnly ? "false" : "true"}
        role="textbox"
        aria-multiline=${markup !== "inline"}
        aria-label=${label}
        aria-readonly=${readOnly}
        spellcheck=${true}
        onInput=${emit}
        onKeyDown=${onKeyDown}
        onClick=${onClick}
        onPaste=${onPaste}
      ></div>
    </div>
  `;
}

/** Set once: the browser makes paragraphs of `<p>` (not `<div>`), and styles as elements (`<b>`), not inline CSS. */
export function configureEditing(): void {
  document.execCommand("defaultParagraphSeparator", false, "p");
  document.execCommand("styleWithCSS", false, "false");
}
