// Checkpoint cost (R-CKPT-4): a snapshot of a 5,000-file workspace with 3 changed files, through
// the same shadow repository code a turn uses; the first (full) snapshot is reported beside it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { makeTempDirs } from "../../test/support/tern-home.js";
import type { Plan } from "./cli-benches.js";
import { stats } from "./harness.js";
import type { Row } from "./rows.js";

const FILES = 5000;

function makeWorkspace(root: string): void {
  for (let d = 0; d < 50; d++) {
    const dir = join(root, `pkg${d}`, "src");
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < FILES / 50; f++)
      writeFileSync(join(dir, `file${f}.ts`), `export const v${d}_${f} = ${d * f};\n`.repeat(20));
  }
}

export async function checkpointBench(plan: Plan): Promise<Row[]> {
  const first: number[] = [];
  const incremental: number[] = [];
  for (let run = 0; run < plan.heavyRuns; run++) {
    const dirs = makeTempDirs("tern-bench-ckpt-");
    try {
      makeWorkspace(dirs.workspace);
      const repo = new ShadowRepo({
        gitDir: join(dirs.home, "shadow"),
        workTree: dirs.workspace,
        sessionId: "bench",
      });
      let t = performance.now();
      let tree = await repo.snapshot(undefined, "first");
      first.push(performance.now() - t);
      for (let i = 0; i < plan.warmup + plan.runs; i++) {
        for (let k = 0; k < 3; k++)
          writeFileSync(join(dirs.workspace, `pkg${k}`, "src", `file${i % 100}.ts`), `changed ${i} ${k}\n`);
        t = performance.now();
        tree = await repo.snapshot(tree, `run ${i}`);
        if (i >= plan.warmup) incremental.push(performance.now() - t);
      }
    } finally {
      dirs.cleanup();
    }
  }
  const firstStats = stats(first);
  return [
    {
      name: "checkpoint",
      metric: `snapshot of ${FILES} files, 3 changed`,
      unit: "ms",
      stats: stats(incremental),
      baseline: { name: "first snapshot", stats: firstStats },
      target: { kind: "max", value: 200, text: "<= 200 ms" },
      notes: { firstSnapshotMedianMs: Math.round(firstStats.median) },
    },
  ];
}
