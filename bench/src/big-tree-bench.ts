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
  // CPU with ripgrep's (a child tern waited for): a figure a loaded machine moves far less than wall time.
  const cpuMs = (r.usage?.cpuMs ?? 0) + (r.usage?.childrenCpuMs ?? 0);
  return { wallMs: r.wallMs, cpuMs, rss: r.usage?.maxRssBytes ?? 0, output };
}

/** How many lines (or files) a grep/glob output stands for: those shown plus "… [N more". */
function counted(output: string): number {
  if (/^No (matches|files match)/.test(output)) return 0;
  const lines = output.split("\n");
  const more = /^… \[(\d+) more/.exec(lines[lines.length - 1]);
  return more ? lines.length - 1 + Number(more[1]) : lines.length;
}

/**
 * rg run by a shell that then prints its own /proc stat (cutime and cstime hold the rg it waited
 * for): ripgrep's CPU, where Node gives no child's rusage. The shell adds ~1 ms of wall time.
 */
const RG_WITH_CPU = 'rg "$@"; cat /proc/$$/stat >&2';

export function rgOnce(
  tree: BigTree,
  args: string[],
): Promise<{ wallMs: number; cpuMs: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn("sh", ["-c", RG_WITH_CPU, "sh", ...args], {
      cwd: tree.dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let lines = 0;
    let stat = "";
    child.stdout.on("data", (d: Buffer) => {
      for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stat += d));
    child.on("error", reject);
    child.on("exit", () => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      child.on("close", () => {
        const f = stat.split(")").pop()?.trim().split(" ") ?? [];
        resolve({ wallMs, cpuMs: (Number(f[13]) + Number(f[14])) * 10 || 0, lines });
      });
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

/** CPU ratios to ripgrep (median, min, max), when /proc gave them. */
function cpuNotes(ratios: number[]): Record<string, string> | undefined {
  if (ratios.length === 0) return undefined;
  const s = stats(ratios);
  return { cpuVsRipgrep: `${s.median.toFixed(2)}x (${s.min.toFixed(2)}-${s.max.toFixed(2)})` };
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
  // The same runs' CPU (tern's with ripgrep's, minus the no-op run's), as ratios to ripgrep's.
  const cpu = cases.map(() => ({ tern: [] as number[], builtin: [] as number[] }));
  let peakRss = 0;
  let stopped = 0;
  let builtinStopped = 0;
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
        let builtinCpu: number | undefined;
        if (c.builtin) {
          const b = await ternOnce(p, s, tree, c.call, withoutRg, false);
          // Past the 10 s bound on a loaded machine: counted with its time, as the ripgrep runs are.
          if (/stopped after/.test(b.output)) builtinStopped++;
          else if (b.output !== tern.output && !/stopped after/.test(tern.output))
            throw new Error(`${c.name} ${c.metric}: the built-in engine answered differently`);
          builtin = b.wallMs - base.wallMs;
          builtinCpu = b.cpuMs - base.cpuMs;
          builtinRss = Math.max(builtinRss, b.rss);
        }
        if (i < plan.warmup) continue;
        peakRss = Math.max(peakRss, tern.rss);
        times[k].tern.push(tern.wallMs - base.wallMs);
        times[k].rg.push(rg.wallMs);
        if (builtin !== undefined) times[k].builtin.push(builtin);
        if (rg.cpuMs > 0) {
          cpu[k].tern.push((tern.cpuMs - base.cpuMs) / rg.cpuMs);
          if (builtinCpu !== undefined) cpu[k].builtin.push(builtinCpu / rg.cpuMs);
        }
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
      notes: cpuNotes(cpu[k].tern),
    });
    if (c.builtin)
      rows.push({
        name: `${c.name} built-in`,
        metric: `${c.metric}, rg not on PATH`,
        unit: "ms",
        stats: stats(times[k].builtin),
        baseline: rg,
        target: { kind: "ratio", value: 4, text: "<= 4x ripgrep" },
        notes: cpuNotes(cpu[k].builtin),
      });
  }
  rows.push({
    name: "big peak RSS",
    metric: "tern run with grep/glob on the big tree (maxRSS)",
    unit: "MB",
    stats: stats([peakRss / MB]),
    target: { kind: "max", value: 150, text: "<= 150 MB" },
    notes: {
      builtinEngineMaxRssMB: Math.round(builtinRss / MB),
      ripgrepEngineRunsPast10s: stopped,
      builtinEngineRunsPast10s: builtinStopped,
    },
  });
  return rows;
}
