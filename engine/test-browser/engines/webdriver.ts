/**
 * The few W3C WebDriver (classic) commands the browser checks need, over fetch: one session, its
 * window, navigation, frames, scripts and screenshots. https://www.w3.org/TR/webdriver2/
 */

export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
  ) {}

  /** Starts a session on the driver listening at `driverUrl` with these capabilities (`alwaysMatch`). */
  static async start(driverUrl: string, capabilities: Record<string, unknown>): Promise<WebDriverSession> {
    const { sessionId } = await command<{ sessionId: string }>("POST", `${driverUrl}/session`, { capabilities: { alwaysMatch: capabilities } });
    return new WebDriverSession(`${driverUrl}/session/${sessionId}`, sessionId);
  }

  setWindowRect(rect: { width: number; height: number }): Promise<unknown> {
    return command("POST", `${this.base}/window/rect`, rect);
  }

  /** Navigates the top-level page and waits for its load (its frames' included). */
  navigate(url: string): Promise<unknown> {
    return command("POST", `${this.base}/url`, { url });
  }

  /** Runs `body` (a function body: `arguments` are `args`, `return` gives the result) in the current frame. */
  execute<T>(body: string, args: readonly unknown[]): Promise<T> {
    return command<T>("POST", `${this.base}/execute/sync`, { script: body, args });
  }

  /** Like `execute`, but the result is what the body passes to its last argument, a callback. */
  executeAsync<T>(body: string, args: readonly unknown[]): Promise<T> {
    return command<T>("POST", `${this.base}/execute/async`, { script: body, args });
  }

  /** Later commands run in this frame of the current page (its index). */
  switchToFrame(frame: number): Promise<unknown> {
    return command("POST", `${this.base}/frame`, { id: frame });
  }

  switchToTopFrame(): Promise<unknown> {
    return command("POST", `${this.base}/frame`, { id: null });
  }

  /** A PNG of the top-level page's viewport. */
  async screenshot(): Promise<Buffer> {
    return Buffer.from(await command<string>("GET", `${this.base}/screenshot`), "base64");
  }

  async end(): Promise<void> {
    await command("DELETE", this.base);
  }
}

async function command<T>(method: "GET" | "POST" | "DELETE", url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as { value: T & { error?: string; message?: string } };
  if (!response.ok) {
    const { error, message } = answer.value;
    throw new Error(`WebDriver ${method} ${new URL(url).pathname}: ${error ?? response.status}: ${message ?? ""}`);
  }
  return answer.value;
}
