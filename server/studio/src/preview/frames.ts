/**
 * The email as its readers see it: a desktop and a phone frame at the widths mail clients have (320,
 * 375, 414, 600, 800 or any), in the light or the dark scheme, for each target — html, React Email
 * rendered by React, MJML compiled by mjml — and as plain text.
 *
 * The dark scheme is emulated in the frame: the email's `prefers-color-scheme: dark` rules are made
 * to apply (and its light ones not), as Apple Mail and iOS Mail apply them for a reader in dark mode,
 * whatever the studio's own scheme. Clients that invert colours on their own (Gmail's apps, Outlook)
 * are not imitated.
 */
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { DraftPreview, Target } from "./types.js";

export type Scheme = "light" | "dark";
export type View = Target | "text";

export const PHONE_WIDTHS = [320, 375, 414] as const;
export const DESKTOP_WIDTHS = [600, 800] as const;
/** Below this a custom width is a phone's. */
const PHONE_MAX = 480;

/** The email with its colour-scheme media queries decided for `scheme`. */
export function inScheme(email: string, scheme: Scheme): string {
  return email.replace(/\(\s*prefers-color-scheme\s*:\s*(dark|light)\s*\)/gi, (_, wanted: string) =>
    wanted.toLowerCase() === scheme ? "(min-width:0px)" : "(max-width:-1px)",
  );
}

export interface FrameSettings {
  view: View;
  scheme: Scheme;
  phoneWidth: number;
  desktopWidth: number;
}

function Frame({ title, testId, srcdoc, width, scheme, fit }: { title: string; testId: string; srcdoc: string; width: number; scheme: Scheme; fit: number }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(600);
  const scale = Math.min(1, fit / width);
  const measure = () => {
    // Same-origin (no scripts run in it): the frame is as tall as the email.
    const doc = frame.current?.contentDocument;
    // The document's own height: its scrollHeight would be at least the frame's current height, so a
    // frame could grow but never shrink to a shorter email.
    if (doc?.documentElement) setHeight(Math.max(200, Math.min(6000, Math.ceil(doc.documentElement.getBoundingClientRect().height))));
  };
  return html`<figure class=${`frame scheme-${scheme}`} style=${`width:${Math.round(width * scale) + 2}px`}>
    <figcaption>${title}, ${width} px${scale < 1 ? html` <span class="muted">(shown at ${Math.round(scale * 100)}%)</span>` : ""}</figcaption>
    <div class="frame-box" style=${`width:${Math.round(width * scale)}px;height:${Math.round(height * scale)}px`}>
      <iframe ref=${frame} title=${`${title} preview (${width} px)`} sandbox="allow-same-origin" srcdoc=${srcdoc} data-testid=${testId} onLoad=${measure}
        style=${`width:${width}px;height:${height}px;transform:scale(${scale})`}></iframe>
    </div>
  </figure>`;
}

export function PreviewFrames({
  preview,
  settings,
  onSettings,
  loading,
}: {
  preview: DraftPreview | null;
  settings: FrameSettings;
  onSettings: (s: FrameSettings) => void;
  loading: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(800);
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const observer = new ResizeObserver(() => setFit(Math.max(200, el.clientWidth - 4)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const set = (change: Partial<FrameSettings>) => onSettings({ ...settings, ...change });
  const setWidth = (px: number) => set(px <= PHONE_MAX ? { phoneWidth: px } : { desktopWidth: px });
  const { view, scheme } = settings;
  const email =
    preview === null ? null : view === "html" || view === "text" ? preview.html.output : preview.view?.target === view ? (preview.view.html ?? null) : null;
  const srcdoc = email === null ? "" : inScheme(email, scheme);
  const viewError = view !== "html" && view !== "text" && preview?.view?.target === view ? preview.view.error : null;
  const tab = (id: View, label: string) =>
    html`<button type="button" role="tab" aria-selected=${view === id} class=${view === id ? "current" : ""} data-testid=${`target-${id}`} onClick=${() => set({ view: id })}>${label}</button>`;
  const widthButton = (px: number) => {
    const on = px <= PHONE_MAX ? settings.phoneWidth === px : settings.desktopWidth === px;
    return html`<button type="button" aria-pressed=${on} class=${on ? "current" : ""} data-testid=${`width-${px}`} onClick=${() => {
      setCustom("");
      setWidth(px);
    }}>${px}</button>`;
  };
  // What is typed in the custom width stays as typed while the previews re-render; Enter applies it.
  const [custom, setCustom] = useState("");
  return html`
    <div class="preview-bar">
      <div class="segmented" role="tablist" aria-label="What to preview">
        ${tab("html", "HTML")}${tab("react-email", "React Email")}${tab("mjml", "MJML")}${tab("text", "Plain text")}
      </div>
      <div class="segmented" role="group" aria-label="Colour scheme">
        <button type="button" aria-pressed=${scheme === "light"} class=${scheme === "light" ? "current" : ""} data-testid="scheme-light" onClick=${() => set({ scheme: "light" })}>Light</button>
        <button type="button" aria-pressed=${scheme === "dark"} class=${scheme === "dark" ? "current" : ""} data-testid="scheme-dark" onClick=${() => set({ scheme: "dark" })}>Dark</button>
      </div>
      <div class="segmented widths" role="group" aria-label="Preview widths (px): phone, then desktop">
        ${PHONE_WIDTHS.map(widthButton)}<span class="sep"></span>${DESKTOP_WIDTHS.map(widthButton)}
        <label class="custom-width">other <input type="number" min="240" max="1600" data-testid="width-custom" value=${custom} placeholder="px"
          onInput=${(e: Event) => setCustom((e.target as HTMLInputElement).value)}
          onChange=${(e: Event) => {
            const px = Number((e.target as HTMLInputElement).value);
            if (Number.isFinite(px) && px >= 240 && px <= 1600) setWidth(Math.round(px));
          }} /></label>
      </div>
      ${loading && html`<span class="muted small-text" role="status">Rendering…</span>`}
    </div>
    ${
      view !== "html" &&
      view !== "text" &&
      html`<p class="muted small-text">${view === "mjml" ? "The MJML source compiled by mjml itself" : "The React Email source rendered by React (@react-email/render)"}, as a reader would get it.</p>`
    }
    ${viewError && html`<p class="bad" role="alert">Could not be made: ${viewError}</p>`}
    <div class="frames" ref=${box}>
      ${
        view === "text"
          ? html`<pre class="plain-text" tabindex="0" data-testid="plain-text">${preview?.text ?? ""}</pre>`
          : html`
            <${Frame} title="Desktop" testId="desktop-frame" srcdoc=${srcdoc} width=${settings.desktopWidth} scheme=${scheme} fit=${fit} />
            <${Frame} title="Phone" testId="phone-frame" srcdoc=${srcdoc} width=${settings.phoneWidth} scheme=${scheme} fit=${fit} />`
      }
    </div>
  `;
}
