/**
 * WebKit (Debian's WebKitGTK: `webkit2gtk-driver` and the MiniBrowser of `libwebkit2gtk-4.1-0`),
 * driven over W3C WebDriver, on a virtual X display (Xvfb).
 *
 * WebKitWebDriver holds one session, and MiniBrowser takes its colour scheme at start
 * (`--dark-mode`): each view is its own driver and MiniBrowser. Its window cannot be narrower than
 * about 450 px, so the page is shown in a frame of the viewing's size, and the checks run inside
 * that frame. WebDriver cannot answer requests itself: MiniBrowser's proxy is the page server.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { cropPng } from "../png.js";
import type { Engine, Network, View, Viewing } from "./engine.js";
import { WebDriverSession } from "./webdriver.js";

/** Where Debian's libwebkit2gtk-4.1-0 installs MiniBrowser (`dpkg -L libwebkit2gtk-4.1-0`), on any architecture. */
function miniBrowser(): string {
  const found = readdirSync("/usr/lib")
    .map((dir) => `/usr/lib/${dir}/webkit2gtk-4.1/MiniBrowser`)
    .find((path) => existsSync(path));
  if (!found) throw new Error("MiniBrowser (libwebkit2gtk-4.1-0) is missing: run scripts/bootstrap");
  return found;
}

export async function launchWebKit(network: Network): Promise<Engine> {
  const binary = miniBrowser();
  const processes: ChildProcess[] = [];
  const sessions: WebDriverSession[] = [];
  const killAll = () => {
    for (const child of processes.reverse()) child.kill();
  };
  process.once("exit", killAll);
  const display = await startDisplay(processes);
  return {
    name: "webkit",
    async open(viewing) {
      const driver = spawnChild(processes, "WebKitWebDriver", ["--port=0"], { ...process.env, DISPLAY: display });
      const port = await listeningPort(driver);
      const session = await WebDriverSession.start(`http://127.0.0.1:${port}`, {
        browserName: "MiniBrowser",
        "webkitgtk:browserOptions": {
          binary,
          args: ["--automation", `--proxy=http://127.0.0.1:${network.proxyPort}`, "--ignore-tls-errors", ...(viewing.scheme === "dark" ? ["--dark-mode"] : [])],
        },
      });
      sessions.push(session);
      return frameView(session, network, viewing);
    },
    async close() {
      await Promise.allSettled(sessions.map((session) => session.end()));
      killAll();
      process.off("exit", killAll);
    },
  };
}

/**
 * A view in a frame of the viewing's size, in the top-left corner of the window's page. Scripts run
 * in the frame; showing a page and taking a screenshot happen in the top page (`inFrame` says where
 * the session is, to switch only when needed).
 */
async function frameView(session: WebDriverSession, network: Network, viewing: Viewing): Promise<View> {
  // The window is larger than its viewport by MiniBrowser's header (measured once), and no narrower
  // than about 450 px; its viewport is made the frame's size, or as near as it goes (then the
  // screenshot is cut to the frame).
  let window = { width: 0, height: 0 };
  let chrome = { width: 0, height: 0 };
  const fitWindow = async (height: number) => {
    const wanted = { width: viewing.width + chrome.width, height: height + chrome.height };
    if (wanted.width === window.width && wanted.height === window.height) return;
    await session.setWindowRect(wanted);
    window = wanted;
  };
  let inFrame = false;
  const enter = async (frame: boolean) => {
    if (frame !== inFrame) await (frame ? session.switchToFrame(0) : session.switchToTopFrame());
    inFrame = frame;
  };
  await fitWindow(viewing.height);
  await session.navigate(network.frameUrl(viewing.width, viewing.height));
  const viewport = await session.execute<{ width: number; height: number }>("return { width: innerWidth, height: innerHeight };", []);
  chrome = { width: Math.max(0, window.width - viewport.width), height: Math.max(0, window.height - viewport.height) };
  return {
    async show(html) {
      await enter(false);
      // A new document in the frame (its listeners go with the old one, so the load listener is added after open()).
      await session.executeAsync(
        `const [html, height, done] = arguments;
         const frame = document.querySelector("iframe");
         frame.style.height = height + "px";
         const page = frame.contentDocument;
         page.open();
         frame.contentWindow.addEventListener("load", () => done());
         page.write(html);
         page.close();`,
        [html, viewing.height],
      );
    },
    async evaluate<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>> {
      await enter(true);
      return session.execute<Awaited<R>>(`return (${fn.toString()}).apply(null, arguments);`, args);
    },
    async screenshot(path) {
      // The frame grows to the page's height (as a full-page screenshot does) and is drawn once more;
      // then the viewport's picture, cut to the frame (WebKitGTK's element screenshots come out partly black).
      await enter(true);
      const height = Math.max(viewing.height, await session.execute<number>("return document.documentElement.scrollHeight;", []));
      await enter(false);
      await fitWindow(height);
      const fits = await session.executeAsync<boolean>(
        `const [height, done] = arguments;
         document.querySelector("iframe").style.height = height + "px";
         requestAnimationFrame(() => requestAnimationFrame(() => done(innerHeight >= height)));`,
        [height],
      );
      if (!fits) throw new Error(`webkit: the window's viewport is lower than the page (${height} px)`);
      writeFileSync(path, cropPng(await session.screenshot(), viewing.width, height));
    },
  };
}

function spawnChild(processes: ChildProcess[], command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  processes.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  child.on("error", () => {}); // a missing binary: reported by whoever waits for the process
  child.once("exit", (code, signal) => {
    if (code && !signal) process.stderr.write(`test-browser: ${command} exited with ${code}: ${stderr}\n`);
  });
  return child;
}

/** Starts Xvfb on a free display (it picks the number and writes it to fd 3 when ready). */
function startDisplay(processes: ChildProcess[]): Promise<string> {
  const xvfb = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], {
    stdio: ["ignore", "ignore", "ignore", "pipe"],
  });
  processes.push(xvfb);
  return new Promise((resolve, reject) => {
    let out = "";
    xvfb.stdio[3]?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(`:${out.trim()}`);
    });
    xvfb.once("error", (error) => reject(new Error(`Xvfb (xvfb) could not start: ${error.message}; run scripts/bootstrap`)));
    xvfb.once("exit", (code) => reject(new Error(`Xvfb exited with ${code} before it was ready`)));
  });
}

/**
 * The port a process listens on, from /proc (WebKitWebDriver takes `--port=0` but does not say
 * which port it got; choosing one ourselves could race with another program).
 */
async function listeningPort(child: ChildProcess): Promise<number> {
  const failed = new Promise<never>((_, reject) => {
    child.once("error", (error) => reject(new Error(`WebKitWebDriver (webkit2gtk-driver) could not start: ${error.message}; run scripts/bootstrap`)));
    child.once("exit", (code) => reject(new Error(`WebKitWebDriver exited with ${code} before it listened`)));
  });
  failed.catch(() => {});
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    const port = child.pid === undefined ? undefined : portOf(child.pid);
    if (port !== undefined) return port;
    await Promise.race([sleep(wait), failed]);
  }
}

function portOf(pid: number): number | undefined {
  let sockets: Set<string>;
  try {
    sockets = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => {
          try {
            return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
          } catch {
            return undefined; // closed meanwhile
          }
        })
        .filter((inode) => inode !== undefined),
    );
  } catch {
    return undefined; // not started yet
  }
  // /proc/net/tcp: "sl local_address rem_address st ... inode"; st 0A is LISTEN.
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields[3] === "0A" && sockets.has(fields[9] ?? "")) return parseInt(fields[1]?.split(":")[1] ?? "", 16);
  }
  return undefined;
}
