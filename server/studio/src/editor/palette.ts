/**
 * The palette: rows of 1 to 4 columns, row spacers, and every block of the engine's registry (from
 * its editor description). A click adds after the selection (a block in its column, or in the last
 * column; a row after the selected top-level row); a drag drops it where the tree shows. Test hooks:
 * `add-row-1`…`add-row-4`, `add-row-spacer`, `add-nested-row-1`…, `add-block-<type>`.
 */
import { html } from "htm/preact";
import type { Descriptions } from "./description.js";
import type { DragSource, DropTarget } from "./tree.js";
import { startDrag } from "./tree.js";

export interface PaletteActions {
  addRow: (columns: number, nested: boolean) => void;
  addSpacer: (nested: boolean) => void;
  addBlock: (type: string) => void;
  drop: (source: DragSource, target: DropTarget) => void;
  /** Makers of new nodes for a drag. */
  newRow: (columns: number) => DragSource;
  newSpacer: () => DragSource;
  newBlock: (type: string) => DragSource;
}

/** A row's columns drawn as bars. */
function columnsIcon(n: number) {
  return html`<span class="cols-icon" aria-hidden="true">${Array.from({ length: n }, () => html`<i></i>`)}</span>`;
}

export function Palette({ descriptions, canNest, actions }: { descriptions: Descriptions; canNest: boolean; actions: PaletteActions }) {
  const draggable = (source: () => DragSource) => (e: PointerEvent) => startDrag(e, source(), actions.drop);
  return html`
    <div class="palette" aria-label="Add to the template">
      <h3>Rows</h3>
      <div class="palette-grid">
        ${[1, 2, 3, 4].map(
          (n) => html`<button type="button" data-testid=${`add-row-${n}`} title=${`Add a row of ${n} column${n === 1 ? "" : "s"} after the selected row`}
            onClick=${() => actions.addRow(n, false)} onPointerDown=${draggable(() => actions.newRow(n))}>${columnsIcon(n)} ${n === 1 ? "1 column" : `${n} columns`}</button>`,
        )}
        <button type="button" data-testid="add-row-spacer" title="Add space between rows" onClick=${() => actions.addSpacer(false)}
          onPointerDown=${draggable(() => actions.newSpacer())}>↕ Spacer</button>
      </div>
      ${
        canNest &&
        html`<h3>Inside the selected column</h3>
        <div class="palette-grid">
          ${[1, 2, 3, 4].map(
            (n) => html`<button type="button" data-testid=${`add-nested-row-${n}`} title=${`Nest a row of ${n} column${n === 1 ? "" : "s"} in the column`}
              onClick=${() => actions.addRow(n, true)}>${columnsIcon(n)} Nested ${n}</button>`,
          )}
          <button type="button" data-testid="add-nested-spacer" onClick=${() => actions.addSpacer(true)}>↕ Nested spacer</button>
        </div>`
      }
      <h3>Blocks</h3>
      <div class="palette-grid">
        ${descriptions.blocks.map(
          (block) => html`<button type="button" data-testid=${`add-block-${block.type}`} title=${block.description}
            onClick=${() => actions.addBlock(block.type)} onPointerDown=${draggable(() => actions.newBlock(block.type))}>${block.label}</button>`,
        )}
      </div>
    </div>
  `;
}
