// Sub-agents side by side (R-AGENT-1): one `tern run` whose model sends one batch of `task`
// calls, each child working 20 rounds (19 `read_file` rounds, then its answer), for 4 children
// vs 1, each answer taking about 100 ms to stream. Wall time spawn to exit (target: 4 children ≤ 1.3× one, so they really overlap) and
// peak RSS (target: each child past the first adds ≤ 20 MB). The two runs are interleaved.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest, ScriptedResponse } from "../../test/support/fake-provider.js";
import { openaiText, openaiToolCalls } from "../../test/support/openai-script.js";
import { firstUserText } from "../../test/e2e/subagents-support.js";
import { expectExit, MB, type Paths, type Plan, repeat, scene, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";

const ROUNDS = 20;
/**
 * Each answer streams over about 100 ms (4 frames 25 ms apart), as a fast hosted model's would:
 * children overlap their model's latency, which is what running them side by side buys. With a
 * zero-latency provider the figure would only measure tern's CPU on one thread.
 */
const FRAME_DELAY_MS = 25;
const slow = (r: ScriptedResponse): ScriptedResponse => ({ ...r, frameDelayMs: FRAME_DELAY_MS });

/** The parent's and each child's script, chosen by the session's first user message. */
function responder(children: number): (request: RecordedRequest) => ScriptedResponse {
  const seen = new Map<string, number>();
  return (request) => {
    const asker = firstUserText(request.body);
    const n = (seen.get(asker) ?? 0) + 1;
    seen.set(asker, n);
    if (asker === "go")
      return n === 1
        ? openaiToolCalls(
            Array.from({ length: children }, (_, i) => ({
              id: `task_${i + 1}`,
              name: "task",
              args: { description: `part ${i + 1}`, prompt: `child ${i + 1}` },
            })),
          )
        : openaiText("All parts done.");
    if (n < ROUNDS)
      return slow(openaiToolCalls([{ id: `r_${n}`, name: "read_file", args: { path: "notes.txt" } }]));
    return slow(openaiText(`${asker} finished.`));
  };
}

async function runWith(p: Paths, children: number): Promise<{ wall: number; rss: number }> {
  const s = await scene();
  try {
    writeFileSync(join(s.dirs.workspace, "notes.txt"), "a line of notes\n".repeat(40));
    s.provider.setResponder(responder(children));
    const r = await spawnNode(p, [p.bin, "run", ...s.modelArgs, "go"], {
      cwd: s.dirs.workspace,
      env: s.env,
      measureUsage: true,
      timeoutMs: 120_000,
    });
    expectExit(r, `tern run (${children} sub-agents)`);
    const expected = 2 + children * ROUNDS;
    if (s.provider.requests.length !== expected)
      throw new Error(`${children} sub-agents: ${s.provider.requests.length} requests, expected ${expected}`);
    if (!r.stdout.includes("All parts done."))
      throw new Error(`the parent printed ${JSON.stringify(r.stdout)}`);
    if (!r.usage) throw new Error("the usage hook reported nothing");
    return { wall: r.wallMs, rss: r.usage.maxRssBytes };
  } finally {
    await s.close();
  }
}

export async function subagentsBench(p: Paths, plan: Plan): Promise<Row[]> {
  const runs = await repeat({ warmup: plan.warmup, runs: plan.heavyRuns }, async () => ({
    one: await runWith(p, 1),
    four: await runWith(p, 4),
  }));
  const one = runs.map((r) => r.one);
  const four = runs.map((r) => r.four);
  const perChild = runs.map((r) => Math.max(0, r.four.rss - r.one.rss) / 3 / MB);
  return [
    {
      name: "sub-agents",
      metric: `4 children × ${ROUNDS} rounds in one batch, spawn to exit`,
      unit: "ms",
      stats: stats(four.map((x) => x.wall)),
      baseline: { name: "1 child", stats: stats(one.map((x) => x.wall)) },
      target: { kind: "ratio", value: 1.3, text: "<= 1.3x" },
    },
    {
      name: "sub-agents",
      metric: "peak RSS each child past the first adds ((4 children − 1) ÷ 3)",
      unit: "MB",
      stats: stats(perChild),
      target: { kind: "max", value: 20, text: "<= 20 MB" },
      notes: {
        medianRssOneChildMB: Math.round(stats(one.map((x) => x.rss / MB)).median),
        medianRssFourChildrenMB: Math.round(stats(four.map((x) => x.rss / MB)).median),
      },
    },
  ];
}
