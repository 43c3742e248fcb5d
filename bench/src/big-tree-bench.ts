// Big-workspace rows (R-BIG-1): tern's grep (a literal, an alternation) and glob `**/*.json` on
// the generated monorepo (big-tree.ts), beside ripgrep on the same tree in the same run,
// interleaved. Tern's figure is its tool's time: a `tern run --yes` with the one tool call minus
// the same run with a no-op call (read_file of a small file), both against the fake provider;
// peak RSS is the grep run's maxRSS (the kernel's, via the usage hook). The built-in engine
// (ripgrep hidden from tern's PATH) is measured the same way. Matches are compared with
// ripgrep's count: a different count throws instead of reporting a time.
import { spawn } from "node:child_process";
import { openaiText, openaiToolCalls } from "../../test/support/openai-script.js";
import { ALTERNATION, type BigTree, NEEDLE } from "./big-tree.js";
import { expectExit, MB, type Paths, type Plan, type Scene, scene, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";

interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** One `tern run --yes` with one tool call; its wall time, peak RSS and the tool's output. */
async function ternOnce(
  p: Paths,
  s: Scene,
  tree: BigTree,
  call: ToolCall,
  env: NodeJS.ProcessEnv,
  strict = true,
) {
  s.provider.enqueue(openaiToolCalls([{ id: "call_1", ...call }]));
  s.provider.enqueue(openaiText("Finished."));
  const r = await spawnNode(p, [p.bin, "run", "--yes", ...s.modelArgs, "go"], {
    cwd: tree.dir,
    env,
    measureUsage: true,
  });
  expectExit(r, `tern run (${call.name} on the big tree)`);
  const last = s.provider.requests[s.provider.requests.length - 1].body;
  const tool = [...last.messages].reverse().find((m: any) => m.role === "tool");
  const output = String(tool?.content ?? "");
  if (strict && /^(grep|glob) (failed|stopped)|^Cannot search/.test(output))
    throw new Error(`${call.name}: ${output}`);
  return { wallMs: r.wallMs, rss: r.usage?.maxRssBytes ?? 0, output };
}

/** How many lines (or files) a grep/glob output stands for: those shown plus "… [N more". */
function counted(output: string): number {
  if (/^No (matches|files match)/.test(output)) return 0;
  const lines = output.split("\n");
  const more = /^… \[(\d+) more/.exec(lines[lines.length - 1]);
  return more ? lines.length - 1 + Number(more[1]) : lines.length;
}

function rgOnce(tree: BigTree, args: string[]): Promise<{ wallMs: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn("rg", args, { cwd: tree.dir, stdio: ["ignore", "pipe", "ignore"] });
    let lines = 0;
    child.stdout.on("data", (d: Buffer) => {
      for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
    });
    child.on("error", reject);
    child.on("exit", () => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      child.on("close", () => resolve({ wallMs, lines }));
    });
  });
}

interface Case {
  name: string;
  metric: string;
  call: ToolCall;
  rg: string[];
  /** rg's count of what tern must find: lines of `rg -c`-free output. */
  target: number;
  builtin: boolean;
}

export async function bigTreeBench(p: Paths, plan: Plan, tree: BigTree): Promise<Row[]> {
  const s = await scene({ checkpoints: { enabled: false } });
  const withRg = s.env;
  const withoutRg = { ...s.env, PATH: "/nonexistent-bin" };
  const cases: Case[] = [
    {
      name: "big grep",
      metric: "literal",
      call: { name: "grep", args: { pattern: NEEDLE } },
      rg: [NEEDLE],
      target: 1.5,
      builtin: true,
    },
    {
      name: "big grep",
      metric: "alternation",
      call: { name: "grep", args: { pattern: ALTERNATION } },
      rg: [ALTERNATION],
      target: 1.5,
      builtin: false,
    },
    {
      name: "big glob",
      metric: "**/*.json",
      call: { name: "glob", args: { pattern: "**/*.json" } },
      rg: ["--files", "-g", "*.json"],
      target: 2,
      builtin: true,
    },
  ];
  const noop: ToolCall = { name: "read_file", args: { path: ".gitignore" } };
  const times = cases.map(() => ({ tern: [] as number[], rg: [] as number[], builtin: [] as number[] }));
  let peakRss = 0;
  let stopped = 0;
  let builtinRss = 0;
  try {
    // The page cache first: a cold read of 400 MB measures the disk, not the search.
    await rgOnce(tree, ["--no-ignore", "-c", "no such text anywhere"]);
    for (let i = 0; i < plan.warmup + plan.heavyRuns; i++) {
      for (const [k, c] of cases.entries()) {
        const base = await ternOnce(p, s, tree, noop, withRg);
        const tern = await ternOnce(p, s, tree, c.call, withRg, false);
        const rg = await rgOnce(tree, c.rg);
        // A run past the 10 s bound (a loaded machine) counts with its time; it found nothing to compare.
        if (/stopped after/.test(tern.output)) stopped++;
        else if (counted(tern.output) !== rg.lines)
          throw new Error(`${c.name} ${c.metric}: tern found ${counted(tern.output)}, ripgrep ${rg.lines}`);
        let builtin: number | undefined;
        if (c.builtin) {
          const b = await ternOnce(p, s, tree, c.call, withoutRg);
          if (b.output !== tern.output)
            throw new Error(`${c.name} ${c.metric}: the built-in engine answered differently`);
          builtin = b.wallMs - base.wallMs;
          builtinRss = Math.max(builtinRss, b.rss);
        }
        if (i < plan.warmup) continue;
        peakRss = Math.max(peakRss, tern.rss);
        times[k].tern.push(tern.wallMs - base.wallMs);
        times[k].rg.push(rg.wallMs);
        if (builtin !== undefined) times[k].builtin.push(builtin);
      }
    }
  } finally {
    await s.close();
  }
  const size = `${tree.files} files, ${Math.round(tree.bytes / MB)} MB`;
  const rows: Row[] = [];
  for (const [k, c] of cases.entries()) {
    const rg = { name: "ripgrep", stats: stats(times[k].rg) };
    rows.push({
      name: c.name,
      metric: `${c.metric} (${size}), tool time`,
      unit: "ms",
      stats: stats(times[k].tern),
      baseline: rg,
      target: { kind: "ratio", value: c.target, text: `<= ${c.target}x ripgrep` },
    });
    if (c.builtin)
      rows.push({
        name: `${c.name} built-in`,
        metric: `${c.metric}, rg not on PATH`,
        unit: "ms",
        stats: stats(times[k].builtin),
        baseline: rg,
        target: { kind: "ratio", value: 4, text: "<= 4x ripgrep" },
      });
  }
  rows.push({
    name: "big peak RSS",
    metric: "tern run with grep/glob on the big tree (maxRSS)",
    unit: "MB",
    stats: stats([peakRss / MB]),
    target: { kind: "max", value: 150, text: "<= 150 MB" },
    notes: { builtinEngineMaxRssMB: Math.round(builtinRss / MB), ripgrepEngineRunsPast10s: stopped },
  });
  return rows;
}
