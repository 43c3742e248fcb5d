// A `tern` process the test controls while it runs: start it, wait until something holds
// (its output, a file), signal it, and collect how it ended. Timeouts here are wide safety nets
// for a loaded machine, never assertions about speed.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, jsonEvents, TERN_BIN } from "../support/cli.js";
import type { E2E } from "./tools-support.js";

export interface LiveTern {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  events(): any[];
  /** Polls `pred` until it holds; throws (with the output so far) after `timeoutMs`. */
  waitFor(pred: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const live = new Set<ChildProcess>();

/** Kills whatever a failed test left running (call from afterEach). */
export function killLeftovers(): void {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  live.clear();
}

export function startTern(e: E2E, args: string[], env: Record<string, string> = {}): LiveTern {
  const child = spawn(process.execPath, [TERN_BIN, ...args], {
    cwd: e.dirs.workspace,
    env: cliEnv(e.dirs.home, { OPENAI_API_KEY: "x", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  let exited = false;
  void exit.then(() => (exited = true));
  const events = () => jsonEvents(out.split("\n").slice(0, -1).join("\n"));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    events,
    exit,
    async waitFor(pred, what, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (!pred()) {
        if (Date.now() > until || exited)
          throw new Error(
            `gave up waiting for ${what}${exited ? " (tern exited)" : ""}\nstdout: ${out}\nstderr: ${err}`,
          );
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

/** The run args of the e2e helpers: `tern run --json` against the fake provider. */
export function runArgs(e: E2E, extra: string[], prompt = "do it"): string[] {
  return ["run", "--json", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, ...extra, prompt];
}

/** Every session folder of the test's TERN_HOME. */
export function sessionDirs(e: E2E): string[] {
  const root = join(e.dirs.home, "sessions");
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((ws) => readdirSync(join(root, ws)).map((id) => join(root, ws, id)));
}

export function recordText(dir: string): string {
  try {
    return readFileSync(join(dir, "record.jsonl"), "utf8");
  } catch {
    return "";
  }
}

/** True when a committed line of `type` (and `id`, if given) is in the session's record. */
export function recordHas(dir: string, type: string, id?: string): boolean {
  return recordText(dir)
    .split("\n")
    .some((l) => l.includes(`"type":"${type}"`) && (id === undefined || l.includes(`"id":"${id}"`)));
}
