// The first turn of a new session in the 100,000-file repository (R-BIG-4), in both cases a user
// meets: the generated tree committed into a real git repository (a copy beside the tree, made
// once: its own index is what seeds the session's first snapshot) and the tree itself (an empty
// `.git`: no index to start from, the full first snapshot). Each run has a fresh TERN_HOME (the
// workspace's first session ever) and one bash call that writes a file; then `tern undo` without
// `--force` (the notes count how often it took the write back rather than refuse; a run it
// claims to undo but leaves the file throws). Pairs interleaved, wall and CPU
// (tern's and its children's), the load average beside each.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { openaiText, openaiToolCalls } from "../../test/support/openai-script.js";
import type { BigTree } from "./big-tree.js";
import { expectExit, type Paths, type Plan, scene, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";

const WRITTEN = "tern-bench-first-turn.txt";

const gitEnv = () => ({
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@localhost",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@localhost",
});

/** The tree committed into a git repository of its own (made once, kept beside the tree). */
export function committedTree(tree: BigTree): string {
  const dir = `${tree.dir}-git`;
  const stampFile = `${dir}.stamp`;
  const stamp = readFileSync(`${tree.dir}.stamp`, "utf8");
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return dir;
  rmSync(dir, { recursive: true, force: true });
  // -H: a tree folder that is a link is copied, not linked (the `.git` below is then the copy's).
  execFileSync("cp", ["-aH", tree.dir, dir]);
  rmSync(join(dir, ".git"), { recursive: true, force: true });
  const git = (args: string[]) =>
    execFileSync("git", ["-c", "gc.auto=0", ...args], { cwd: dir, env: gitEnv(), stdio: "ignore" });
  git(["init", "--quiet", "."]);
  git(["add", "-A"]);
  git(["commit", "--quiet", "-m", "the generated tree"]);
  // Packed, as a cloned repository is.
  git(["gc", "--quiet"]);
  writeFileSync(stampFile, stamp);
  return dir;
}

async function firstTurn(p: Paths, workspace: string) {
  const s = await scene();
  try {
    const command = `echo first > ${WRITTEN}`;
    s.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command } }]),
      openaiText("Finished."),
    );
    let firstRequest = 0;
    const started = performance.now();
    s.provider.setResponder(() => {
      firstRequest ||= performance.now() - started;
      return undefined;
    });
    const load = loadavg()[0];
    const args = [p.bin, "run", "--yes", ...s.modelArgs, "go"];
    const r = await spawnNode(p, args, { cwd: workspace, env: s.env, measureUsage: true });
    expectExit(r, "tern run (one bash call, a new session)");
    // Exit 2: undo refused (the first snapshot may hold the turn's writes); anything else fails.
    const undo = await spawnNode(p, [p.bin, "undo"], { cwd: workspace, env: s.env });
    if (undo.code !== 2) expectExit(undo, "tern undo of the first turn, without --force");
    if (undo.code === 0 && existsSync(join(workspace, WRITTEN)))
      throw new Error(`tern undo left ${WRITTEN} in ${workspace}`);
    const cpuMs = (r.usage?.cpuMs ?? 0) + (r.usage?.childrenCpuMs ?? 0);
    return { wallMs: r.wallMs, cpuMs, firstRequestMs: firstRequest, load, undone: undo.code === 0 };
  } finally {
    rmSync(join(workspace, WRITTEN), { force: true });
    await s.close();
  }
}

export async function bigFirstTurnBench(p: Paths, plan: Plan, tree: BigTree): Promise<Row[]> {
  const repository = committedTree(tree);
  const cases = [
    { metric: "git repository (its index seeds the first snapshot)", dir: repository },
    { metric: "no git index (the full first snapshot)", dir: tree.dir },
  ];
  const runs = cases.map(() => [] as Awaited<ReturnType<typeof firstTurn>>[]);
  for (let i = 0; i < plan.warmup + plan.heavyRuns; i++)
    for (const [k, c] of cases.entries()) {
      const run = await firstTurn(p, c.dir);
      if (i >= plan.warmup) runs[k].push(run);
    }
  return cases.map((c, k) => ({
    name: "big first turn",
    metric: `${c.metric}: one bash call, spawn to exit`,
    unit: "ms",
    stats: stats(runs[k].map((r) => r.wallMs)),
    target: { kind: "max", value: 3000, text: "<= 3 s" },
    notes: {
      cpuMsMedian: Math.round(stats(runs[k].map((r) => r.cpuMs)).median),
      firstRequestMsMedian: Math.round(stats(runs[k].map((r) => r.firstRequestMs)).median),
      undoneWithoutForce: `${runs[k].filter((r) => r.undone).length}/${runs[k].length}`,
      load: runs[k].map((r) => r.load.toFixed(1)).join(" "),
    },
  }));
}
