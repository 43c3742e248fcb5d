// What a user waits for in the 100,000-file repository with checkpoints on (R-BIG-1 amended,
// R-BIG-4): one session, its first turn timed on its own (one bash call, the workspace's first,
// full snapshot), then later turns of that session (`tern run --continue`): grep and glob as tool
// time (the run with the call minus the same run with a no-op read_file, as the checkpoints-off
// rows measure it) beside ripgrep; and what a bash round adds on a later round of a live process,
// once its change watch is up (rounds 4-8 of an 8-round turn, each appending to one scratch
// file, timed between the fake provider's requests) over the same turn with checkpoints off.
import { readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { openaiText, openaiToolCalls } from "../../test/support/openai-script.js";
import { type BigTree, NEEDLE } from "./big-tree.js";
import { rgOnce } from "./big-tree-bench.js";
import { expectExit, MB, type Paths, type Plan, type Scene, scene, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";

interface Call {
  name: string;
  args: Record<string, unknown>;
}

const SCRATCH = "packages/pkg0000/tern-bench-scratch.txt";

/** CPU of the children this process reaped (tern and the git it waited for), ms (Linux, 10 ms ticks). */
function childCpuMs(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}
const ROUNDS = 8;

/** One `tern run --continue --yes` whose model asks `batches` in turn, then answers; request times. */
async function turn(p: Paths, s: Scene, tree: BigTree, batches: Call[][], first = false) {
  for (const [k, calls] of batches.entries())
    s.provider.enqueue(openaiToolCalls(calls.map((call, i) => ({ id: `c${k}_${i}`, ...call }))));
  s.provider.enqueue(openaiText("Finished."));
  const stamps: number[] = [];
  const started = performance.now();
  s.provider.setResponder(() => {
    stamps.push(performance.now());
    return undefined;
  });
  const args = ["run", "--yes", ...(first ? [] : ["--continue"]), ...s.modelArgs, "go"];
  const r = await spawnNode(p, [p.bin, ...args], { cwd: tree.dir, env: s.env, measureUsage: true });
  s.provider.setResponder(undefined);
  expectExit(r, `tern run (${batches.map((b) => b[0]?.name).join(", ")} on the big tree)`);
  return {
    wallMs: r.wallMs,
    rss: r.usage?.maxRssBytes ?? 0,
    stamps,
    firstRequestMs: (stamps[0] ?? started) - started,
  };
}

const bashRounds = (): Call[][] =>
  Array.from({ length: ROUNDS }, (_, k) => [
    // Round 1 waits a second, so the change watch (started at the turn's first snapshot) is up.
    { name: "bash", args: { command: `${k === 0 ? "sleep 1; " : ""}echo ${k} >> ${SCRATCH}` } },
  ]);

/** The gaps between requests 4..ROUNDS+1: later rounds, each its bash and the snapshot it waits for. */
const laterRounds = (stamps: number[]) => stamps.slice(4, ROUNDS + 1).map((t, i) => t - stamps[i + 3]);

export async function bigLaterTurnBench(p: Paths, plan: Plan, tree: BigTree): Promise<Row[]> {
  const on = await scene();
  const off = await scene({ checkpoints: { enabled: false } });
  const noop: Call = { name: "read_file", args: { path: ".gitignore" } };
  const cases: { metric: string; call: Call; target: number }[] = [
    { metric: "grep literal", call: { name: "grep", args: { pattern: NEEDLE } }, target: 1.5 },
    { metric: "glob **/*.json", call: { name: "glob", args: { pattern: "**/*.json" } }, target: 2 },
  ];
  const tool = cases.map(() => [] as number[]);
  const onRounds: number[] = [];
  const offRounds: number[] = [];
  const onCpu: number[] = [];
  const offCpu: number[] = [];
  let peak = 0;
  try {
    const first = await turn(p, on, tree, [[{ name: "bash", args: { command: "true" } }]], true);
    await turn(p, off, tree, [[{ name: "bash", args: { command: "true" } }]], true);
    const rg = cases.map(() => [] as number[]);
    for (let i = 0; i < plan.warmup + plan.runs; i++) {
      for (const [k, c] of cases.entries()) {
        const base = await turn(p, on, tree, [[noop]]);
        const run = await turn(p, on, tree, [[c.call]]);
        const r = (await rgOnce(tree, c.metric.startsWith("grep") ? [NEEDLE] : ["--files", "-g", "*.json"]))
          .wallMs;
        peak = Math.max(peak, run.rss);
        if (i < plan.warmup) continue;
        tool[k].push(run.wallMs - base.wallMs);
        rg[k].push(r);
      }
      let cpu = childCpuMs();
      const withCheckpoints = await turn(p, on, tree, bashRounds());
      const onTurnCpu = childCpuMs() - cpu;
      cpu = childCpuMs();
      const without = await turn(p, off, tree, bashRounds());
      const offTurnCpu = childCpuMs() - cpu;
      peak = Math.max(peak, withCheckpoints.rss);
      if (i < plan.warmup) continue;
      onRounds.push(...laterRounds(withCheckpoints.stamps));
      offRounds.push(...laterRounds(without.stamps));
      onCpu.push(onTurnCpu);
      offCpu.push(offTurnCpu);
    }
    const rows: Row[] = cases.map((c, k) => ({
      name: "big later turn",
      metric: `${c.metric}, checkpoints on, tool time`,
      unit: "ms",
      stats: stats(tool[k]),
      baseline: { name: "ripgrep", stats: stats(rg[k]) },
      target: { kind: "ratio", value: c.target, text: `<= ${c.target}x ripgrep` },
    }));
    const added = stats(onRounds).median - stats(offRounds).median;
    rows.push(
      {
        name: "big later turn",
        metric: "what a later bash round adds, checkpoints on over off",
        unit: "ms",
        stats: stats([added]),
        target: { kind: "max", value: 30, text: "<= 30 ms" },
        notes: {
          onRoundMedianMs: Math.round(stats(onRounds).median),
          offRoundMedianMs: Math.round(stats(offRounds).median),
          // The whole 8-round run's CPU, tern's and its git's (index catch-up and exit included).
          onTurnCpuMedianMs: Math.round(stats(onCpu).median),
          offTurnCpuMedianMs: Math.round(stats(offCpu).median),
          loadAverage: loadavg()[0].toFixed(1),
        },
      },
      {
        name: "big later turn",
        metric: "peak RSS of those runs (maxRSS)",
        unit: "MB",
        stats: stats([peak / MB]),
        target: { kind: "max", value: 120, text: "<= 120 MB" },
      },
      {
        name: "big first turn",
        metric: "one bash call in a new workspace: spawn to exit, first snapshot included",
        unit: "ms",
        stats: stats([first.wallMs]),
        target: { kind: "max", value: 3000, text: "<= 3 s" },
        notes: { firstRequestMs: Math.round(first.firstRequestMs) },
      },
    );
    return rows;
  } finally {
    rmSync(join(tree.dir, SCRATCH), { force: true });
    await on.close();
    await off.close();
  }
}
