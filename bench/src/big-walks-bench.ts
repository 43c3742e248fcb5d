// The other walks of the workspace on the generated tree, each beside the walk it
// replaced: the checkpoint's file count of a nested repository (the tree is one: it has its own
// `.git`, so it stands for a vendored monorepo clone), before (a synchronous walk entering
// `node_modules`) and after (asynchronous, `node_modules` and `.git` never entered), with the
// longest event-loop block of each (what a streaming turn would feel); and the sandbox's
// protected-entry scan (bounded at 20,000 folders), first and repeated.
import { type Dirent, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { countFilesIn } from "../../src/checkpoint/nested-repos.js";
import { ProtectedScan } from "../../src/sandbox/protected-scan.js";
import type { BigTree } from "./big-tree.js";
import { type Plan, stats } from "./harness.js";
import type { Row } from "./rows.js";

/** The count as it was before it was bounded: synchronous, into `node_modules`, `.git` alone skipped. */
function countBefore(workTree: string, folder: string, cap: number): number {
  const queue = [folder.replace(/\/+$/, "")];
  let count = 0;
  while (queue.length > 0 && count < cap) {
    const dir = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(workTree, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      if (entry.isDirectory()) queue.push(`${dir}/${entry.name}`);
      else count++;
    }
  }
  return count;
}

/** Wall time and the longest event-loop block (ms: the widest gap between 1 ms ticks) while `run` runs. */
async function timed(run: () => unknown): Promise<{ ms: number; blockMs: number; value: unknown }> {
  let last = performance.now();
  let widest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    widest = Math.max(widest, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 5));
  widest = 0;
  last = performance.now();
  const t = performance.now();
  const value = await run();
  const ms = performance.now() - t;
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(tick);
  return { ms, blockMs: widest, value };
}

export async function bigWalksBench(plan: Plan, tree: BigTree): Promise<Row[]> {
  const parent = dirname(tree.dir);
  const folder = `${basename(tree.dir)}/`;
  const cap = 200_001;
  const before: number[] = [];
  const after: number[] = [];
  const blockBefore: number[] = [];
  const blockAfter: number[] = [];
  let counts = { before: 0, after: 0 };
  for (let i = 0; i < plan.warmup + plan.runs; i++) {
    const b = await timed(() => countBefore(parent, folder, cap));
    const a = await timed(() => countFilesIn(parent, folder, cap));
    if (i < plan.warmup) continue;
    before.push(b.ms);
    after.push(a.ms);
    blockBefore.push(b.blockMs);
    blockAfter.push(a.blockMs);
    counts = { before: b.value as number, after: a.value as number };
  }
  const first: number[] = [];
  const repeat: number[] = [];
  for (let i = 0; i < plan.heavyRuns; i++) {
    const scan = new ProtectedScan(tree.dir);
    let t = performance.now();
    scan.find();
    first.push(performance.now() - t);
    t = performance.now();
    scan.find();
    repeat.push(performance.now() - t);
  }
  return [
    {
      name: "big walks: nested-repo count",
      metric: `longest event-loop block counting a ${tree.files}-file nested clone`,
      unit: "ms",
      stats: stats(blockAfter),
      baseline: { name: "before (sync, into node_modules)", stats: stats(blockBefore) },
      target: { kind: "max", value: 50, text: "<= 50 ms" },
      notes: {
        countMsAfter: Math.round(stats(after).median),
        countMsBefore: Math.round(stats(before).median),
        filesCountedBefore: counts.before,
        filesCountedAfter: counts.after,
      },
    },
    {
      name: "big walks: protected-entry scan",
      metric: `sandbox .git/.tern scan of ${tree.files} files, repeat`,
      unit: "ms",
      stats: stats(repeat),
      target: { kind: "max", value: 100, text: "<= 100 ms" },
      notes: { firstScanMs: Math.round(stats(first).median) },
    },
  ];
}
