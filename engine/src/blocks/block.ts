/**
 * A block declares its props (with defaults) and how it renders for each target, in one folder
 * (mjml's component model). The registry in `registry.ts` feeds both the validator and the renderers,
 * so adding a block touches one folder and one line.
 */
import type * as z from "zod/mini";
import type { Emitter } from "../markup/emitter.js";

/** Which writer renders a block: MJML components, plain email HTML (in nested rows) or React Email JSX. */
export type Renderer = "mjml" | "html" | "jsx";

export interface BlockRenderContext {
  readonly out: Emitter;
  /** Content width available to the block, in px (the column's width less its padding). */
  readonly width: number;
  /** Responsive classes for this block (desktopHide/mobileHide/mobile overrides), or "". */
  readonly className: string;
  /** Every font family the document uses; non-web-safe ones get a Google Fonts link. */
  readonly fonts: Set<string>;
  /** A class unique to this block in the document, for head CSS aimed at it. */
  readonly uid: string;
  /** Head CSS rules (desktop), e.g. what a native MJML component has no attribute for. */
  readonly headCss: string[];
  /** CSS rules that apply under the mobile breakpoint only. */
  readonly mobileCss: string[];
}

export interface BlockDefinition<Props> {
  readonly type: string;
  readonly props: z.ZodMiniType<Props>;
  /** Children of `mj-column`: idiomatic MJML components. */
  mjml(props: Props, ctx: BlockRenderContext): string;
  /** Plain email HTML, for blocks inside nested rows (where MJML has no components). */
  html(props: Props, ctx: BlockRenderContext): string;
  /** React Email JSX built from `@react-email/components`. */
  jsx(props: Props, ctx: BlockRenderContext): string;
}

/**
 * `props` is a factory: the schema is built on first use and kept. A template uses a few of the
 * block types, and building a zod schema is the largest part of the executable's cold start
 * (QuickJS builds ~30 000 schema objects a second), so a block nobody uses costs nothing.
 */
export function defineBlock<S extends z.ZodMiniType>(definition: {
  type: string;
  props: () => S;
  mjml(props: z.output<S>, ctx: BlockRenderContext): string;
  html(props: z.output<S>, ctx: BlockRenderContext): string;
  jsx(props: z.output<S>, ctx: BlockRenderContext): string;
}): BlockDefinition<z.output<S>> {
  const { props: buildProps, ...renderers } = definition;
  let props: S | undefined;
  const block = {
    ...renderers,
    get props() {
      props ??= buildProps();
      return props;
    },
  };
  return block as BlockDefinition<z.output<S>>;
}
