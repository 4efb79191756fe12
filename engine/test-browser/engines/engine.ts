/**
 * What the browser checks ask of a browser engine, whatever drives it: a view of a page at a given
 * width, in a given colour scheme, in which to run a function and take a screenshot. The checks are
 * written once against this; each engine's driver maps it onto its own protocol (docs/design/browser-engines.md).
 */

export type EngineName = "chromium" | "firefox" | "webkit";

export type Scheme = "light" | "dark";

/** How a page is looked at: its viewport, whether as a phone, and the reader's colour scheme. */
export interface Viewing {
  readonly width: number;
  readonly height: number;
  readonly phone: boolean;
  readonly scheme: Scheme;
}

/** One page at a time, seen as its viewing says. */
export interface View {
  /**
   * Shows this HTML document and waits for its load event (its images loaded or failed). It is
   * written into a blank page of the page server's origin, as a mail client writes a message into
   * its view: cheaper than a navigation, and the document's mode follows its doctype all the same.
   */
  show(html: string): Promise<void>;
  /**
   * Runs `fn` in the page and returns its (JSON) result. As with puppeteer, the function is sent as
   * its source text: it may use only its arguments and the page's globals.
   */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>>;
  /** Writes a PNG of the whole page (not only the viewport) to `path`. */
  screenshot(path: string): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  /** A new view. Every view of an engine shares what it can (one browser, one display). */
  open(viewing: Viewing): Promise<View>;
  /** Ends every browser process the engine started. */
  close(): Promise<void>;
}

/** The local web the engine's pages live in (page-server.ts). */
export interface Network {
  /** Every request to another site goes through this HTTP proxy on 127.0.0.1. */
  readonly proxyPort: number;
  /** An empty page of the server's origin, to write the pages into. */
  readonly blankUrl: string;
  /** A page framing the blank page at the given size, for an engine whose window cannot take that size. */
  frameUrl(width: number, height: number): string;
}
