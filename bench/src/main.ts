// The benchmark runner: runs each benchmark (after a warm-up), prints the table and writes
// bench/results.json. Options: --quick (fewer runs), --only <name,…>, --strict (exit 1 on a miss),
// --dist <dir> (another build, e.g. `node scripts/build.mjs --outdir <dir>`), --profile <dir> (a CPU profile of every tern child, for finding why a target is missed).
import { standInBench } from "./stand-in-bench.js";
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { longSessionBench, oneRoundBench, type Plan, resumeBench, startBench } from "./cli-benches.js";
import { bashLoopBench, toolLoopBench } from "./tool-loop-benches.js";
import { roundCostBench } from "./round-cost-bench.js";
import { checkpointBench } from "./checkpoint-bench.js";
import { editRoundsBench } from "./edit-rounds-bench.js";
import { lspBench } from "./lsp-bench.js";
import { jobFloodBench } from "./jobs-bench.js";
import { subagentsBench } from "./subagents-bench.js";
import { worktreeBench } from "./worktree-bench.js";
import { generateBigTree } from "./big-tree.js";
import { bigTreeBench } from "./big-tree-bench.js";
import { bigCheckpointBench, bigFileMenuBench, bigWatchedCheckpointBench } from "./big-tree-extra.js";
import { bigLaterTurnBench } from "./big-turn-bench.js";
import { bigFirstTurnBench } from "./big-first-turn-bench.js";
import { bigWalksBench } from "./big-walks-bench.js";
import { bigFileMenuPtyBench } from "./big-file-menu-pty.js";
import { longTurnBench } from "./compaction-bench.js";
import { paths, setProfileDir, stats } from "./harness.js";
import { sandboxBench } from "./sandbox-bench.js";
import { telemetryBench } from "./telemetry-bench.js";
import { hooksBench } from "./hooks-bench.js";
import { mcpStartBench } from "./mcp-bench.js";
import { judge, type JudgedRow, type Row, table } from "./rows.js";
import { keystrokeBench, streamFrameBench } from "./ui-benches.js";
import { sessionRssBench, streamBytesBench } from "./ui-stream-benches.js";
import { piCpuBench } from "./ui-pi-bench.js";
import { parseOnce, recordStream } from "./sse.js";

async function sseBench(plan: Plan): Promise<Row[]> {
  const stream = recordStream();
  const mbps: number[] = [];
  // The same passes by the process's CPU time: on a loaded machine the wall figure mostly
  // measures the share of a core the bench got, this one the parser.
  const cpuMbps: number[] = [];
  for (let i = 0; i < plan.warmup + plan.runs; i++) {
    const cpu = process.cpuUsage();
    const ms = await parseOnce(stream);
    const used = process.cpuUsage(cpu);
    if (i < plan.warmup) continue;
    mbps.push(stream.bytes / (1024 * 1024) / (ms / 1000));
    cpuMbps.push(stream.bytes / (1024 * 1024) / ((used.user + used.system) / 1e6));
  }
  return [
    {
      name: "SSE",
      metric: `parse + accumulate ${(stream.bytes / (1024 * 1024)).toFixed(1)} MB in ${stream.chunks.length} chunks`,
      unit: "MB/s",
      stats: stats(mbps),
      target: { kind: "min", value: 100, text: ">= 100 MB/s" },
      notes: { medianMBpsByCpuTime: Math.round(stats(cpuMbps).median) },
    },
  ];
}

export async function main({ root, argv }: { root: string; argv: string[] }): Promise<number> {
  const quick = argv.includes("--quick");
  const strict = argv.includes("--strict");
  const onlyAt = argv.indexOf("--only");
  const only = onlyAt >= 0 ? new Set(argv[onlyAt + 1]?.split(",")) : undefined;
  const plan: Plan = quick ? { warmup: 1, runs: 3, heavyRuns: 1 } : { warmup: 1, runs: 9, heavyRuns: 3 };
  const distAt = argv.indexOf("--dist");
  const p = paths(root, distAt >= 0 ? resolve(argv[distAt + 1]) : undefined);
  const profileAt = argv.indexOf("--profile");
  if (profileAt >= 0) setProfileDir(resolve(argv[profileAt + 1] ?? "bench-profiles"));

  // --tree-files N: the big tree's size (default 100,000); --gen-tree DIR: only generate one there.
  const treeFilesAt = argv.indexOf("--tree-files");
  const treeFiles = treeFilesAt >= 0 ? Number(argv[treeFilesAt + 1]) : 100_000;
  if (!Number.isInteger(treeFiles) || treeFiles < 100) throw new Error("--tree-files: a whole number >= 100");
  const genAt = argv.indexOf("--gen-tree");
  const bigTree = async (dir = join(root, "node_modules/.cache/tern-bench", `big-tree-${treeFiles}`)) => {
    const started = Date.now();
    const tree = await generateBigTree(dir, treeFiles);
    process.stderr.write(` [tree ${tree.dir}: ${((Date.now() - started) / 1000).toFixed(1)} s] `);
    return tree;
  };
  if (genAt >= 0) {
    const tree = await bigTree(resolve(argv[genAt + 1]));
    process.stdout.write(
      `${tree.files} files (${tree.jsonFiles} .json), ${tree.bytes} bytes in ${tree.dir}\n`,
    );
    return 0;
  }

  const benches: [string, () => Promise<Row[]>][] = [
    ["start", () => startBench(p, plan)],
    ["one-round", () => oneRoundBench(p, plan)],
    ["stand-ins", () => standInBench(p, plan)],
    ["telemetry", () => telemetryBench(p, plan)],
    ["hooks", () => hooksBench(p, plan)],
    ["tool-loop", () => toolLoopBench(p, plan)],
    ["bash-loop", () => bashLoopBench(p, plan)],
    ["round-cost", () => roundCostBench(p, plan)],
    ["edit-rounds", () => editRoundsBench(p, plan)],
    ["sse", () => sseBench(plan)],
    ["resume", () => resumeBench(p, plan)],
    ["long-session", () => longSessionBench(p, plan)],
    ["checkpoint", () => checkpointBench(plan)],
    ["sandbox", () => sandboxBench(plan)],
    ["long-turn", () => longTurnBench(p, plan)],
    ["mcp-start", () => mcpStartBench(p, plan)],
    ["ui-keys", () => keystrokeBench(p, plan)],
    ["ui-stream", () => streamFrameBench(p, plan)],
    ["ui-stream-bytes", () => streamBytesBench(p, plan)],
    ["ui-stream-cpu", () => piCpuBench(p, plan)],
    ["ui-session-rss", () => sessionRssBench(p, plan)],
    ["job-flood", () => jobFloodBench(p, plan)],
    ["subagents", () => subagentsBench(p, plan)],
    ["lsp", () => lspBench(root, plan)],
    ["big-tree", async () => bigTreeBench(p, plan, await bigTree())],
    ["big-checkpoint", async () => bigCheckpointBench(plan, await bigTree())],
    ["big-checkpoint-watched", async () => bigWatchedCheckpointBench(plan, await bigTree())],
    ["big-later-turn", async () => bigLaterTurnBench(p, plan, await bigTree())],
    ["big-first-turn", async () => bigFirstTurnBench(p, plan, await bigTree())],
    ["big-file-menu", async () => bigFileMenuBench(plan, await bigTree())],
    ["big-walks", async () => bigWalksBench(plan, await bigTree())],
    ["big-file-menu-pty", async () => bigFileMenuPtyBench(p, plan, await bigTree())],
    ["worktree", async () => worktreeBench(p, plan, await bigTree())],
  ];
  const unknown = [...(only ?? [])].filter((name) => !benches.some(([known]) => known === name));
  if (unknown.length > 0) {
    throw new Error(
      `--only: unknown benchmark ${unknown.join(", ")} (known: ${benches.map(([n]) => n).join(", ")})`,
    );
  }
  const rows: JudgedRow[] = [];
  for (const [name, run] of benches) {
    if (only && !only.has(name)) continue;
    const started = Date.now();
    process.stderr.write(`bench: ${name} …`);
    for (const row of await run()) rows.push(judge(row));
    process.stderr.write(` ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }

  process.stdout.write(`\n${table(rows)}\n\n`);
  const failed = rows.filter((r) => !r.pass);
  process.stdout.write(
    failed.length === 0
      ? "all targets met\n"
      : `${failed.length} target(s) missed: ${failed.map((r) => r.name).join(", ")}\n`,
  );
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryBytes: totalmem(),
    plan,
    rows: rows.map(({ stats: s, baseline, ...rest }) => ({
      ...rest,
      median: s.median,
      min: s.min,
      max: s.max,
      samples: s.samples,
      ...(baseline
        ? {
            baseline: { name: baseline.name, median: baseline.stats.median, samples: baseline.stats.samples },
          }
        : {}),
    })),
  };
  writeFileSync(join(root, "bench/results.json"), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write("wrote bench/results.json\n");
  return strict && failed.length > 0 ? 1 : 0;
}
