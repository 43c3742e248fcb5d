// Sandbox cost (R-SBX): one `bash` call of `echo hi` inside bubblewrap against the same call
// outside it, through the bash tool's own runner, the policy made again for the call as a
// session does (the nested-repository rescan). Skipped (no row) where bwrap cannot run.
import { join } from "node:path";
import { sandboxedCommand, sandboxMechanism } from "../../src/sandbox/mechanism.js";
import { sandboxBounds } from "../../src/sandbox/policy.js";
import { runBash } from "../../src/tools/builtin/bash.js";
import { makeTempDirs } from "../../test/support/tern-home.js";
import type { Plan } from "./cli-benches.js";
import { stats } from "./harness.js";
import type { Row } from "./rows.js";

export async function sandboxBench(plan: Plan): Promise<Row[]> {
  const mechanism = sandboxMechanism();
  if (!mechanism.available) {
    process.stderr.write(` (skipped: ${mechanism.why})`);
    return [];
  }
  const dirs = makeTempDirs("tern-bench-sbx-");
  try {
    const bounds = sandboxBounds(
      { mode: "workspace-write", network: false, writableRoots: [] },
      dirs.workspace,
      join(dirs.home),
    )!;
    let policy = bounds.current();
    const sandbox = {
      get policy() {
        return policy;
      },
      wrap: (c: readonly string[]) => {
        policy = bounds.current();
        return { ...sandboxedCommand(mechanism, policy, c), placeholders: policy.placeholders };
      },
    };
    const signal = new AbortController().signal;
    const plain: number[] = [];
    const boxed: number[] = [];
    const runs = plan.runs * 3;
    for (let i = 0; i < plan.warmup + runs; i++) {
      let t = performance.now();
      await runBash("echo hi", dirs.workspace, 60, signal);
      const a = performance.now() - t;
      t = performance.now();
      await runBash("echo hi", dirs.workspace, 60, signal, sandbox);
      const b = performance.now() - t;
      if (i >= plan.warmup) {
        plain.push(a);
        boxed.push(b);
      }
    }
    const overhead = boxed.map((b, i) => b - plain[i]);
    return [
      {
        name: "sandbox",
        metric: "bash call in bubblewrap, over the same call outside",
        unit: "ms",
        stats: stats(overhead),
        baseline: { name: "unsandboxed call", stats: stats(plain) },
        target: { kind: "max", value: 15, text: "<= 15 ms" },
      },
    ];
  } finally {
    dirs.cleanup();
  }
}
