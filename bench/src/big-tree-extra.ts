// Big-workspace rows beside the search ones (R-BIG-2, R-BIG-3, R-CKPT-4): an incremental
// checkpoint with three changed files on the generated tree, through the shadow repository code
// a turn uses (its first, full snapshot is taken once and kept beside the tree, so re-runs
// measure only the incremental one; its time is in the notes when this run took it), and `@file`
// completion: the background index's build time, and the menu's time for each keystroke of
// `<package>/<file name>` typed after `@` (the slowest keystroke is the figure).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { WorkspaceFileIndex } from "../../src/workspace/workspace-files.js";
import { fileMenu } from "../../src/tui/completion.js";
import type { BigTree } from "./big-tree.js";
import { type Plan, stats } from "./harness.js";
import type { Row } from "./rows.js";

/**
 * CPU time of this process and of the children it has reaped (ms): git's work and ours, the
 * figure load does not stretch (the row's wall times are). Linux's /proc, in clock ticks of 10 ms.
 */
function cpuMs(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    // Fields after the command name (which may hold spaces): cutime and cstime are the 14th and 15th.
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    children = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // Not Linux: the children's share is left out (the notes say "own" only then).
  }
  return (own.user + own.system) / 1000 + children;
}

/**
 * git's own floor on the same tree: `git status` in the tree's own repository, its index made
 * once from the first snapshot (objects borrowed from the shadow, stat data refreshed) and a
 * commit of it as HEAD, so status compares as in a clean checkout with a few edits.
 */
function gitStatusBaseline(tree: BigTree, snapshot: string): () => { ms: number; cpuMs: number } {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_DIR: join(tree.dir, ".git"), GIT_WORK_TREE: tree.dir };
  delete env.GIT_INDEX_FILE;
  const git = (args: string[]) =>
    execFileSync("git", ["-c", "core.fsmonitor=false", ...args], {
      cwd: tree.dir,
      env,
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
  const ready = join(tree.dir, ".git", "tern-bench-baseline");
  if (!existsSync(ready) || readFileSync(ready, "utf8") !== snapshot) {
    mkdirSync(join(tree.dir, ".git", "objects", "info"), { recursive: true });
    writeFileSync(
      join(tree.dir, ".git", "objects", "info", "alternates"),
      `${join(`${tree.dir}.shadow`, "objects")}\n`,
    );
    git(["read-tree", snapshot]);
    try {
      git(["update-index", "-q", "--refresh"]);
    } catch {
      // Exit 1 lists what still differs (the bench's edits): the index is refreshed all the same.
    }
    const commit = git([
      "-c",
      "user.name=b",
      "-c",
      "user.email=b@b",
      "commit-tree",
      snapshot,
      "-m",
      "base",
    ]).trim();
    git(["update-ref", "HEAD", commit]);
    writeFileSync(ready, snapshot);
  }
  return () => {
    const t = performance.now();
    const cpu = cpuMs();
    git(["status", "--porcelain", "-z"]);
    return { ms: performance.now() - t, cpuMs: cpuMs() - cpu };
  };
}

export async function bigCheckpointBench(plan: Plan, tree: BigTree): Promise<Row[]> {
  const repo = new ShadowRepo({ gitDir: `${tree.dir}.shadow`, workTree: tree.dir, sessionId: "bench" });
  const firstNeeded = !existsSync(join(`${tree.dir}.shadow`, "tern-index", "bench"));
  let t = performance.now();
  let snapshot = await repo.snapshot(undefined, "first");
  const firstMs = performance.now() - t;
  const changed = [0, 1, 2].map((k) => join(tree.dir, "packages", `pkg000${k}`, "src", "mod1", "file1.ts"));
  const originals = changed.map((path) => readFileSync(path, "utf8"));
  const samples: number[] = [];
  const gitSamples: number[] = [];
  const cpu: number[] = [];
  const gitCpu: number[] = [];
  const gitStatus = gitStatusBaseline(tree, snapshot);
  try {
    for (let i = 0; i < plan.warmup + plan.runs; i++) {
      for (const [k, path] of changed.entries()) writeFileSync(path, `${originals[k]}// change ${i}\n`);
      const git = gitStatus();
      t = performance.now();
      const c = cpuMs();
      snapshot = await repo.snapshot(snapshot, `run ${i}`);
      if (i >= plan.warmup) {
        samples.push(performance.now() - t);
        cpu.push(cpuMs() - c);
        gitSamples.push(git.ms);
        gitCpu.push(git.cpuMs);
      }
    }
  } finally {
    for (const [k, path] of changed.entries()) writeFileSync(path, originals[k]);
  }
  return [
    {
      name: "big checkpoint",
      metric: `snapshot of ${tree.files} files, 3 changed`,
      unit: "ms",
      stats: stats(samples),
      baseline: { name: "git status", stats: stats(gitSamples) },
      target: { kind: "max", value: 500, text: "<= 500 ms" },
      notes: {
        // CPU (tern's process and its git children): what load does not stretch.
        cpuMedianMs: Math.round(stats(cpu).median),
        gitStatusCpuMedianMs: Math.round(stats(gitCpu).median),
        ...(firstNeeded
          ? { firstSnapshotMs: Math.round(firstMs) }
          : { firstSnapshot: "kept from an earlier run" }),
      },
    },
  ];
}

/**
 * The same incremental snapshot as a live session takes it on a later turn: the session's change
 * watch (watched-changes.ts) vouches for the 3 files a bash round wrote, so the snapshot runs no
 * git (watched-snapshot.ts) and the session index catches up in the background. Interleaved with
 * the same snapshot the `git status` way (a second session of the same shadow, its watch only
 * telling git what changed: the way before), each pair on the same writes; wall and CPU (git's
 * included) in the notes, and the background catch-up's own time (awaited outside the timing).
 */
export async function bigWatchedCheckpointBench(plan: Plan, tree: BigTree): Promise<Row[]> {
  const open = (sessionId: string, withoutGit: boolean) =>
    new ShadowRepo({
      gitDir: `${tree.dir}.shadow`,
      workTree: tree.dir,
      sessionId,
      watchChanges: true,
      withoutGit,
    });
  const ways = [open("bench", true), open("bench-git", false)];
  const snapshots: (string | undefined)[] = [undefined, undefined];
  for (const [k, repo] of ways.entries()) snapshots[k] = await repo.snapshot(undefined, "first");
  // The watch starts beside that snapshot; the one after it still compares everything.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  for (const [k, repo] of ways.entries()) snapshots[k] = await repo.snapshot(snapshots[k], "watch up");
  const changed = [3, 4, 5].map((k) => join(tree.dir, "packages", `pkg000${k}`, "src", "mod1", "file1.ts"));
  const originals = changed.map((path) => readFileSync(path, "utf8"));
  const wall = [[], []] as number[][];
  const cpu = [[], []] as number[][];
  const own: number[] = [];
  const idle: number[] = [];
  const catchUp: number[] = [];
  const ownMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  try {
    for (let i = 0; i < plan.warmup + plan.runs * 2; i++) {
      for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const repo = ways[k];
        for (const [n, path] of changed.entries())
          writeFileSync(path, `${originals[n]}// change ${i} ${k}\n`);
        let t = performance.now();
        const c = cpuMs();
        const o = ownMs();
        snapshots[k] = await repo.snapshot(snapshots[k], `run ${i}`);
        if (i >= plan.warmup) {
          wall[k].push(performance.now() - t);
          cpu[k].push(cpuMs() - c);
          if (k === 0) own.push(ownMs() - o);
        }
        // Any git command waits for the background catch-up: its time, outside the timing above.
        t = performance.now();
        await repo.git(["rev-parse", "--verify", "--quiet", "HEAD"], undefined, true, [1]);
        if (i >= plan.warmup && k === 0) catchUp.push(performance.now() - t);
        // A round that changed nothing (a bash round that only read): no git at all.
        t = performance.now();
        if ((await repo.snapshot(snapshots[k], `idle ${i}`)) !== snapshots[k])
          throw new Error("idle snapshot moved");
        if (i >= plan.warmup && k === 0) idle.push(performance.now() - t);
      }
    }
  } finally {
    for (const [k, path] of changed.entries()) writeFileSync(path, originals[k]);
    for (const repo of ways) await repo.close();
  }
  return [
    {
      name: "big checkpoint watched",
      metric: `later snapshot of ${tree.files} files, 3 written, change watch on`,
      unit: "ms",
      stats: stats(wall[0]),
      baseline: { name: "git status way", stats: stats(wall[1]) },
      target: { kind: "max", value: 30, text: "<= 30 ms" },
      notes: {
        cpuMedianMs: Math.round(stats(cpu[0]).median),
        gitWayCpuMedianMs: Math.round(stats(cpu[1]).median),
        ownCpuMedianMs: Math.round(stats(own).median),
        backgroundCatchUpMedianMs: Math.round(stats(catchUp).median),
        nothingChangedMedianMs: Number(stats(idle).median.toFixed(1)),
        loadAverage: loadavg()[0].toFixed(1),
      },
    },
  ];
}

export async function bigFileMenuBench(plan: Plan, tree: BigTree): Promise<Row[]> {
  const builds: number[] = [];
  const keystrokes: number[] = [];
  let listed = 0;
  for (let i = 0; i < plan.warmup + plan.runs; i++) {
    const index = new WorkspaceFileIndex(tree.dir);
    const t = performance.now();
    index.refresh();
    await index.settled();
    const files = index.current() ?? [];
    listed = files.length;
    if (i >= plan.warmup) builds.push(performance.now() - t);
    const target = files[Math.floor(files.length / 2)];
    // Its package and its name, as a person narrows a name that many packages share.
    const segments = target.split("/");
    const name = `${segments[1]}/${segments[segments.length - 1]}`;
    let slowest = 0;
    for (let n = 1; n <= name.length; n++) {
      const text = `look at @${name.slice(0, n)}`;
      const k = performance.now();
      const menu = fileMenu(text, text.length, files);
      slowest = Math.max(slowest, performance.now() - k);
      if (n === name.length && !menu?.items.some((item) => item.label === `@${target}`))
        throw new Error(`@file: typing ${name} did not offer ${target}`);
    }
    if (i >= plan.warmup) keystrokes.push(slowest);
  }
  return [
    {
      name: "big @file",
      metric: `slowest keystroke of package/name typed after @ (${listed} files listed)`,
      unit: "ms",
      stats: stats(keystrokes),
      target: { kind: "max", value: 300, text: "<= 300 ms" },
      notes: { indexBuildMedianMs: Math.round(stats(builds).median) },
    },
  ];
}
