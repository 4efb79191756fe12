import { spawn } from "node:child_process";

/** `count` busy loops, as `(while :; do :; done) &`; stopped by the returned function. */
export function busyLoops(count: number): () => void {
  const loops = Array.from({ length: count }, () => spawn("bash", ["-c", "while :; do :; done"], { stdio: "ignore" }));
  return () => {
    for (const loop of loops) loop.kill("SIGKILL");
  };
}
