/**
 * output_format "layout": a compiled output's static text (its parts) goes to the client once per
 * process, under a small id; each render then sends only the recipient's values. For a 60 KB
 * newsletter that is a few hundred bytes per render instead of 60 KB, so a client on the other end
 * of a pipe neither copies nor JSON-decodes the same 60 KB again and again.
 *
 * A layout is the engine's compiled output object, whose identity is stable while the engine's
 * compile cache keeps it: a recompiled output (evicted, then needed again) is a new object and gets
 * a new id, so an id never names two different texts.
 */
export interface LayoutRef {
  readonly id: number;
  readonly parts?: readonly string[];
}

export class LayoutRegistry {
  readonly #ids = new WeakMap<object, number>();
  readonly #sent = new WeakSet<object>();
  #nextId = 0;

  /** The layout's id, with its parts if they were never sent from here or the client asks for them. */
  describe(layout: object, parts: readonly string[], resend: boolean): LayoutRef {
    let id = this.#ids.get(layout);
    if (id === undefined) {
      id = this.#nextId++;
      this.#ids.set(layout, id);
    }
    if (this.#sent.has(layout) && !resend) return { id };
    this.#sent.add(layout);
    return { id, parts };
  }
}
