// A fixture server (an MCP or OAuth server under test/tools/fixtures/) run by node on
// 127.0.0.1 port 0: it prints its port as its first line of stdout once it listens.
import { type ChildProcess, spawn } from "node:child_process";

export interface FixtureServerOptions {
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Where the fixture's stderr goes (default: dropped). */
  stderr?: "inherit" | "ignore";
  /** Named in the error when the fixture exits before it prints its port ("the HTTP fixture exited"). */
  name: string;
}

/**
 * Starts the fixture. The child is returned at once, so the caller can own it (kill it after the
 * test) even when the port never comes; `port` resolves to the printed port.
 */
export function startFixtureServer(
  script: string,
  options: FixtureServerOptions,
): { child: ChildProcess; port: Promise<string> } {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", options.stderr ?? "ignore"],
  });
  const port = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      if (out.includes("\n")) resolve(out.trim());
    });
    child.on("exit", () => reject(new Error(`the ${options.name} fixture exited`)));
  });
  return { child, port };
}
