// Worktrees (R-WT): making one in the 100,000-file repository, beside git's own `git worktree add`
// (the floor: checking out 100,000 files is most of it), with and without `.worktreeinclude`
// copies (`.env` and 1,000 ignored files, beside `cp`); and what `isolation: worktree` adds to a
// sub-agent's wall time in a small repository (one child, isolated vs not, interleaved).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openaiText, openaiToolCalls } from "../../test/support/openai-script.js";
import { firstUserText } from "../../test/e2e/subagents-support.js";
import { createWorktree, removeWorktree, repoPlace } from "../../src/worktrees/index.js";
import type { BigTree } from "./big-tree.js";
import { expectExit, type Paths, type Plan, repeat, scene, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=b@b", ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });

/** A real repository with the big tree committed (kept beside the tree between runs). */
function bigRepo(tree: BigTree): string {
  const dir = `${tree.dir}.repo`;
  if (existsSync(join(dir, ".git", "tern-bench-ready"))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  git(dir, "init", "-q", "-b", "main");
  git(dir, `--work-tree=${tree.dir}`, "add", "-A");
  git(dir, "commit", "-qm", "big tree");
  git(dir, "reset", "-q", "--hard");
  // Ignored files a worktree lacks: `.env` and a local cache of 1,000.
  writeFileSync(join(dir, ".git", "info", "exclude"), ".env\nlocal-cache/\n");
  writeFileSync(join(dir, ".env"), "TOKEN=bench\n");
  mkdirSync(join(dir, "local-cache"));
  for (let i = 0; i < 1000; i++) writeFileSync(join(dir, "local-cache", `c${i}.json`), `{"i":${i}}\n`);
  writeFileSync(join(dir, ".git", "tern-bench-ready"), "");
  return dir;
}

async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function createRows(plan: Plan, repo: string): Promise<Row[]> {
  const place = await repoPlace(repo);
  const include = join(repo, ".worktreeinclude");
  const floorDir = join(repo, "..", "bench-floor-worktree");
  const runs = await repeat({ warmup: 1, runs: plan.heavyRuns }, async () => {
    rmSync(include, { force: true });
    const floor = await timed(() => git(repo, "worktree", "add", "-q", "-b", "bench-floor", floorDir));
    git(repo, "worktree", "remove", "--force", floorDir);
    git(repo, "branch", "-D", "bench-floor");
    const plain = await timed(() => createWorktree({ cwd: repo, name: "bench-plain" }));
    await removeWorktree(place, "bench-plain", { force: true });
    writeFileSync(include, ".env\nlocal-cache/\n");
    const floorCopy = await timed(() => {
      git(repo, "worktree", "add", "-q", "-b", "bench-floor", floorDir);
      execFileSync("cp", ["-r", join(repo, ".env"), join(repo, "local-cache"), floorDir]);
    });
    git(repo, "worktree", "remove", "--force", floorDir);
    git(repo, "branch", "-D", "bench-floor");
    const copied = await timed(() => createWorktree({ cwd: repo, name: "bench-include" }));
    await removeWorktree(place, "bench-include", { force: true });
    rmSync(include, { force: true });
    return { floor, plain, floorCopy, copied };
  });
  const files = git(repo, "ls-files").split("\n").length - 1;
  return [
    {
      name: "worktree",
      metric: `create a worktree in a ${files}-file repository`,
      unit: "ms",
      stats: stats(runs.map((r) => r.plain)),
      baseline: { name: "git worktree add", stats: stats(runs.map((r) => r.floor)) },
      target: { kind: "ratio", value: 1.25, text: "<= 1.25x" },
    },
    {
      name: "worktree",
      metric: "… with .worktreeinclude copying .env and 1,000 ignored files",
      unit: "ms",
      stats: stats(runs.map((r) => r.copied)),
      baseline: { name: "git worktree add + cp -r", stats: stats(runs.map((r) => r.floorCopy)) },
      target: { kind: "ratio", value: 1.5, text: "<= 1.5x" },
    },
  ];
}

/** One `tern run` whose one child writes a file, isolated or not; wall ms spawn to exit. */
async function childRun(p: Paths, isolated: boolean): Promise<number> {
  const s = await scene();
  try {
    const ws = s.dirs.workspace;
    git(ws, "init", "-q", "-b", "main");
    for (let i = 0; i < 1000; i++) writeFileSync(join(ws, `f${i}.txt`), `file ${i}\n`);
    git(ws, "add", "-A");
    git(ws, "commit", "-qm", "init");
    s.provider.setResponder((request) => {
      const asker = firstUserText(request.body);
      const n = s.provider.requests.filter((r) => firstUserText(r.body) === asker).length;
      if (asker === "go")
        return n === 1
          ? openaiToolCalls([
              {
                id: "t1",
                name: "task",
                args: {
                  description: "write",
                  prompt: "child",
                  ...(isolated ? { isolation: "worktree" } : {}),
                },
              },
            ])
          : openaiText("done");
      return n === 1
        ? openaiToolCalls([{ id: "b1", name: "bash", args: { command: "echo changed > f1.txt" } }])
        : openaiText("child done");
    });
    const r = await spawnNode(p, [p.bin, "run", "--yes", ...s.modelArgs, "go"], {
      cwd: ws,
      env: s.env,
      timeoutMs: 60_000,
    });
    expectExit(r, `tern run (${isolated ? "isolated" : "shared"} child)`);
    return r.wallMs;
  } finally {
    await s.close();
  }
}

export async function worktreeBench(p: Paths, plan: Plan, tree: BigTree): Promise<Row[]> {
  const rows = await createRows(plan, bigRepo(tree));
  const runs = await repeat({ warmup: plan.warmup, runs: plan.runs }, async () => ({
    shared: await childRun(p, false),
    isolated: await childRun(p, true),
  }));
  const added = runs.map((r) => r.isolated - r.shared);
  rows.push({
    name: "worktree",
    metric: "what isolation: worktree adds to a sub-agent (1,000-file repo, one bash write)",
    unit: "ms",
    stats: stats(added),
    target: { kind: "max", value: 300, text: "<= 300 ms" },
    notes: {
      medianSharedMs: Math.round(stats(runs.map((r) => r.shared)).median),
      medianIsolatedMs: Math.round(stats(runs.map((r) => r.isolated)).median),
    },
  });
  return rows;
}
