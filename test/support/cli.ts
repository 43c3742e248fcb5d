// Runs the built CLI (dist/tern.js) as a real process with its own TERN_HOME and workspace.
import { spawn } from "node:child_process";
import { resolve } from "node:path";

export const TERN_BIN = resolve(import.meta.dirname, "../../dist/tern.js");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  home: string;
  cwd: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
  timeoutMs?: number;
}

/** Environment for a test run: provider keys and base URLs of the real machine are removed. */
export function cliEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/_API_KEY$|_BASE_URL$/.test(key)) delete env[key];
  }
  env.TERN_HOME = home;
  // Never probe the machine's real local model servers (R-CFG-4); a test names its own ports.
  env.TERN_LOCAL_PROBE_PORTS = "";
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export function runCli(args: string[], opts: CliOptions): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [TERN_BIN, ...args], {
      cwd: opts.cwd,
      env: cliEnv(opts.home, opts.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    child.stdin.end(opts.stdin ?? "");
  });
}

/** Parses `--json` output: one event object per line. */
export function jsonEvents(stdout: string): any[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}
