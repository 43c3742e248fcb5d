// Builders for record lines in tests, and a bundler for child-process scripts (Node 20 cannot
// run TypeScript, so a child gets the real modules bundled by esbuild).
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { NewRecord, RecordLine } from "../../src/record/types.js";
import type { ToolCall } from "../../src/vocab/messages.js";
import type { Usage } from "../../src/vocab/usage.js";

const here = dirname(fileURLToPath(import.meta.url));

export const usage = (prompt: number, completion: number, cacheRead = 0, cacheWrite = 0): Usage => ({
  prompt,
  completion,
  cacheRead,
  cacheWrite,
});

export const call = (id: string, name: string, args: object = {}): ToolCall => ({
  id,
  name,
  arguments: JSON.stringify(args),
});

export const R = {
  start: (id = "s1", cwd = "/ws", model = "openai/gpt-test"): NewRecord => ({
    type: "session_start",
    id,
    cwd,
    model,
  }),
  context: (system = "You are tern."): NewRecord => ({ type: "context", system, tools: [] }),
  user: (turn: number, text: string): NewRecord => ({
    type: "user_prompt",
    turn,
    content: [{ type: "text", text }],
  }),
  assistant: (
    turn: number,
    round: number,
    text: string,
    calls: ToolCall[] = [],
    u: Usage | null = usage(100, 10),
  ) =>
    ({
      type: "assistant_message",
      turn,
      round,
      text,
      reasoning: "",
      toolCalls: calls,
      finish: calls.length ? "tool_calls" : "stop",
      rawFinish: calls.length ? "tool_calls" : "stop",
      usage: u,
      model: "openai/gpt-test",
    }) as NewRecord,
  toolStart: (turn: number, id: string, name: string): NewRecord => ({ type: "tool_start", turn, id, name }),
  result: (
    turn: number,
    id: string,
    name: string,
    text: string,
    outcome: "ok" | "error" = "ok",
  ): NewRecord => ({
    type: "tool_result",
    turn,
    id,
    name,
    outcome,
    content: [{ type: "text", text }],
  }),
  end: (turn: number, cost: number | null = 0.01, stopReason = "completed"): NewRecord => ({
    type: "turn_end",
    turn,
    stopReason,
    rounds: 1,
    modelCalls: 1,
    toolCalls: 0,
    toolErrors: 0,
    usage: usage(100, 10),
    cost,
    durationMs: 1000,
    startedAt: "2026-01-01T00:00:00.000Z",
  }),
};

/** Stamps lines as a writer would (seq from 1), for fold tests that need no file. */
export function stamp(recs: NewRecord[], firstSeq = 1): RecordLine[] {
  return recs.map(
    (r, i) =>
      ({
        v: 1,
        seq: firstSeq + i,
        ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        ...r,
      }) as RecordLine,
  );
}

/** Bundles a child script into `outDir` and returns a runner for it. */
export async function bundleChild(entry: string, outDir: string): Promise<(args: string[]) => string> {
  const outfile = join(outDir, "child.mjs");
  await build({
    entryPoints: [resolve(here, entry)],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Bundled CommonJS (better-sqlite3) requires Node's own modules.
    banner: {
      js: "import { createRequire as __childRequire } from 'node:module'; const require = __childRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
  // better-sqlite3's JavaScript is bundled as tern's build bundles it; the ledger finds its addon
  // with createRequire, whose resolution honours NODE_PATH.
  const env = { ...process.env, NODE_PATH: resolve(here, "../../node_modules") };
  return (args) => execFileSync(process.execPath, [outfile, ...args], { env, encoding: "utf8" });
}

export function childEnv(): NodeJS.ProcessEnv {
  return { ...process.env, NODE_PATH: resolve(here, "../../node_modules") };
}
