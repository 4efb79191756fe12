/**
 * A regular expression compiled when it is first matched instead of when it is built. QuickJS (the
 * executable's runtime) compiles an expression in its constructor, and the template schemas hold
 * expressions that a given template may never test: built eagerly, every launch would compile all
 * of them. `source` and `flags` are the real ones (zod writes them into the published JSON Schema
 * and into issues); `test` and `exec` compile the expression once and match with it.
 *
 * Only for matching: `test`, `exec`, and the string methods that call them (`match`, `replace`,
 * `search`). `new RegExp(lazy)` copies the empty internal source and `split` is refused; copy one
 * with `new RegExp(lazy.source, lazy.flags)`.
 */
export class LazyRegExp extends RegExp {
  #compiled: RegExp | undefined;

  constructor(source: string, flags = "") {
    // `g` and `y` make matching depend on `lastIndex`, which the compiled copy would have to mirror.
    if (/[gy]/.test(flags)) throw new Error(`LazyRegExp does not take the stateful flags g or y: ${flags}`);
    super("", flags);
    Object.defineProperty(this, "source", { value: source });
  }

  override exec(value: string): RegExpExecArray | null {
    return this.#expression().exec(value);
  }

  override test(value: string): boolean {
    return this.#expression().test(value);
  }

  #expression(): RegExp {
    this.#compiled ??= new RegExp(this.source, this.flags);
    return this.#compiled;
  }
}
