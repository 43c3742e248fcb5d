// Shared scaffolding of the end-to-end tests: a temp TERN_HOME + workspace, a fake
// OpenAI-compatible provider, `tern run` through the built CLI, and readers for what it left.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { type CliResult, jsonEvents, runCli } from "../support/cli.js";
import { FakeProvider } from "../support/fake-provider.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

export interface E2E {
  dirs: TempDirs;
  provider: FakeProvider;
  /** The built CLI with this test's TERN_HOME, run in its workspace. */
  run(args: string[], env?: Record<string, string | undefined>): Promise<CliResult>;
}

export interface E2EOptions {
  /** User config written to `<home>/config.json` once the provider is up (it may name its URL). */
  config?: (e: E2E) => Record<string, unknown>;
}

/** Registers beforeEach/afterEach hooks; the returned object is filled before every test. */
export function useE2E(opts: E2EOptions = {}): E2E {
  const ctx: E2E = {
    run: (args, env = {}) => runCli(args, { home: ctx.dirs.home, cwd: ctx.dirs.workspace, env }),
  } as E2E;
  beforeEach(async () => {
    ctx.dirs = makeTempDirs();
    ctx.provider = await FakeProvider.start();
    if (opts.config) writeUserConfig(ctx, opts.config(ctx));
  });
  afterEach(async () => {
    await ctx.provider.close();
    ctx.dirs.cleanup();
  });
  return ctx;
}

export function writeUserConfig(e: E2E, config: Record<string, unknown>): void {
  writeFileSync(join(e.dirs.home, "config.json"), JSON.stringify(config));
}

export interface RunResult extends CliResult {
  events: any[];
  end: any;
}

/** `tern run --json <args> <prompt>` against the fake provider (model openai/mock-1). */
export async function ternRun(
  e: E2E,
  args: string[],
  prompt = "do it",
  opts: { timeoutMs?: number; env?: Record<string, string>; baseUrlFlag?: boolean } = {},
): Promise<RunResult> {
  // Without the flag the provider's base URL comes from config (trust tests need that).
  const target = opts.baseUrlFlag === false ? [] : ["--base-url", e.provider.baseUrl];
  const result = await runCli(["run", "--json", "--model", "openai/mock-1", ...target, ...args, prompt], {
    home: e.dirs.home,
    cwd: e.dirs.workspace,
    env: { OPENAI_API_KEY: "sk-test-key", ...opts.env },
    timeoutMs: opts.timeoutMs,
  });
  const events = jsonEvents(result.stdout);
  return { ...result, events, end: events.find((ev) => ev.type === "turn_end") };
}

/** The tool messages of a recorded OpenAI request, in the order they were sent. */
export function toolMessages(body: any): { id: string; content: string }[] {
  return body.messages
    .filter((m: any) => m.role === "tool")
    .map((m: any) => ({ id: m.tool_call_id, content: m.content }));
}

/** The parsed record lines of the only (or latest) session of the workspace. */
export function recordLines(e: E2E): any[] {
  const root = join(e.dirs.home, "sessions");
  const workspaces = readdirSync(root);
  const dir = join(root, workspaces[0]);
  const sessions = readdirSync(dir).sort();
  const text = readFileSync(join(dir, sessions.at(-1)!, "record.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}
