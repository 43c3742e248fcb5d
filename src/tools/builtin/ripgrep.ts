// ripgrep as the engine of grep and glob when it is on the PATH (R-BIG-1): its walk and search
// are parallel native code. Invoked so that its rules are the built-in walk's rules: hidden files
// included, `.git` and `node_modules` left out, no global or `.git/info/exclude` ignores, ignore
// files above the root only when there are none (file-walk.ts's ripgrepFor decides), `.gitignore` honoured outside repositories too, no config file, no encoding sniffing.
import { spawn } from "node:child_process";
import { programPath } from "../../programs/program-path.js";

const SAME_RULES = [
  "--hidden",
  "--no-config",
  "--no-require-git",
  "--no-ignore-global",
  "--no-ignore-exclude",
  "--no-messages",
  "--null",
  "-g",
  "!.git",
  "-g",
  "!node_modules",
];

/**
 * The `rg` grep and glob run: from an absolute PATH entry outside the workspace (§10), so a
 * repository's `node_modules/.bin/rg` behind a relative PATH entry never runs unasked. The
 * resolver looks again only when PATH changes.
 */
export function ripgrepPath(root?: string): string | undefined {
  return programPath("rg", { workspaces: root ? [root] : [] });
}

export interface RgRun {
  args: string[];
  cwd: string;
  deadline: number;
  signal?: AbortSignal;
  /** Each output record (a NUL-terminated path for --files, a line otherwise). */
  onRecord(record: string): void;
  separator: "\n" | "\0";
}

export type RgOutcome = "done" | "failed" | "timeout" | "cancelled";

/** Runs rg, streaming its stdout records; killed at the deadline or on cancel. */
export function runRipgrep(rg: string, run: RgRun): Promise<RgOutcome> {
  return new Promise((resolve) => {
    const child = spawn(rg, [...SAME_RULES, ...run.args], {
      cwd: run.cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let settled = false;
    let rest = "";
    let stderr = "";
    const finish = (outcome: RgOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener("abort", onAbort);
      if (child.exitCode === null) child.kill("SIGKILL");
      resolve(outcome);
    };
    const timer = setTimeout(() => finish("timeout"), Math.max(0, run.deadline - performance.now()));
    const onAbort = () => finish("cancelled");
    if (run.signal?.aborted) return finish("cancelled");
    run.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (settled) return;
      const parts = (rest + chunk).split(run.separator);
      rest = parts.pop() ?? "";
      for (const part of parts) run.onRecord(part);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.on("error", () => finish("failed"));
    child.on("close", (code) => {
      if (rest !== "") run.onRecord(rest);
      // 1 is "no match"; 2 with no error text is an unreadable file among readable ones.
      finish(code === 0 || code === 1 || (code === 2 && stderr.trim() === "") ? "done" : "failed");
    });
  });
}
