// Benchmarks of the tool loop: many rounds of one tool call in one `tern run --yes` against the
// fake provider (read_file CPU per round; bash wall per round and what a round adds).
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { openaiText, openaiToolCalls } from "../../test/support/openai-script.js";
import { expectExit, MB, type Paths, type Plan, repeat, scene, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";

/** `rounds` rounds of the same tool call, then a text answer, in one `tern run --yes`. */
export async function toolRun(
  p: Paths,
  s: Awaited<ReturnType<typeof scene>>,
  rounds: number,
  call: { name: string; args: Record<string, unknown> },
  opts: { measureUsage?: boolean; onSpawn?: (pid: number) => void } = {},
) {
  for (let i = 1; i <= rounds; i++)
    s.provider.enqueue(openaiToolCalls([{ id: `call_${i}`, name: call.name, args: call.args }]));
  s.provider.enqueue(openaiText("Finished."));
  const before = s.provider.requests.length;
  const limit = String(rounds + 10);
  const r = await spawnNode(
    p,
    [p.bin, "run", "--yes", ...s.modelArgs, "--max-model-calls", limit, "--max-tool-calls", limit, "go"],
    { cwd: s.dirs.workspace, env: s.env, ...opts },
  );
  expectExit(r, `tern run (${rounds} rounds of ${call.name})`);
  const sent = s.provider.requests.length - before;
  if (sent !== rounds + 1 || s.provider.pending !== 0)
    throw new Error(`expected ${rounds + 1} requests, the provider saw ${sent}`);
  const last = s.provider.requests[s.provider.requests.length - 1].body;
  const lastTool = [...last.messages].reverse().find((m: any) => m.role === "tool");
  if (rounds > 0 && (!lastTool || /error|denied/i.test(String(lastTool.content).slice(0, 40))))
    throw new Error(`the tool call did not succeed: ${JSON.stringify(lastTool).slice(0, 300)}`);
  return r;
}

export function sourceFile(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export const v${i} = ${i} * 2; // line ${i + 1}`).join(
    "\n",
  );
}

export async function toolLoopBench(p: Paths, plan: Plan): Promise<Row[]> {
  const rounds = 200;
  const s = await scene();
  try {
    writeFileSync(join(s.dirs.workspace, "notes.ts"), `${sourceFile(40)}\n`);
    const runs = await repeat(plan, async () => {
      const r = await toolRun(
        p,
        s,
        rounds,
        { name: "read_file", args: { path: "notes.ts" } },
        { measureUsage: true },
      );
      if (!r.usage) throw new Error("the usage hook reported nothing");
      return { cpu: r.usage.cpuMs / rounds, sys: r.usage.systemMs / rounds, wall: r.wallMs / rounds };
    });
    return [
      {
        name: "tool loop",
        metric: `tern CPU per round (${rounds} read_file rounds)`,
        unit: "ms",
        stats: stats(runs.map((x) => x.cpu)),
        target: { kind: "max", value: 2, text: "<= 2 ms" },
        notes: {
          medianWallPerRoundMs: stats(runs.map((x) => x.wall)).median,
          medianSystemCpuPerRoundMs: stats(runs.map((x) => x.sys)).median,
        },
      },
    ];
  } finally {
    await s.close();
  }
}

export async function bashLoopBench(p: Paths, plan: Plan): Promise<Row[]> {
  const rounds = 100;
  const short = 30;
  const s = await scene();
  try {
    const runs = await repeat(plan, async () => {
      const r = await toolRun(p, s, rounds, { name: "bash", args: { command: "echo hi" } });
      return r.wallMs / rounds;
    });
    // 30 rounds against a run with no tool round, interleaved: what a round adds to a run
    // (bash, its checkpoint, the request and the record lines), start-up taken out.
    const marginal = await repeat(plan, async () => {
      const none = await toolRun(p, s, 0, { name: "bash", args: { command: "echo hi" } });
      const loop = await toolRun(
        p,
        s,
        short,
        { name: "bash", args: { command: "echo hi" } },
        {
          measureUsage: true,
        },
      );
      if (!loop.usage) throw new Error("the usage hook reported nothing");
      return { perRound: (loop.wallMs - none.wallMs) / short, rss: loop.usage.maxRssBytes };
    });
    return [
      {
        name: "bash loop",
        metric: `wall per round (${rounds} bash 'echo hi' rounds, spawn to exit)`,
        unit: "ms",
        stats: stats(runs),
        target: { kind: "max", value: 15, text: "<= 15 ms" },
      },
      {
        name: "bash loop",
        metric: `wall a round adds (${short} rounds vs none)`,
        unit: "ms",
        stats: stats(marginal.map((x) => x.perRound)),
        target: { kind: "max", value: 8, text: "<= 8 ms" },
        notes: { medianPeakRssMB: stats(marginal.map((x) => x.rss / MB)).median },
      },
    ];
  } finally {
    await s.close();
  }
}
