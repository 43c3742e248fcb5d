// How the calls of one batch are ordered (R-TOOL-3): at most 8 at once, `bash` as a barrier,
// calls naming the same real file one after another, and one approval question at a time.
import { statSync } from "node:fs";
import { realPathLoose } from "./paths.js";
import type { ToolKind } from "./types.js";

/** A counting semaphore: `acquire` resolves with the function that gives the slot back. */
export class Slots {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    return () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/**
 * The batch cut at `bash` calls (R-TOOL-3): runs of neighbouring bash calls and runs of other
 * calls alternate, each as the indices of its calls.
 */
function barrierGroups(kinds: (ToolKind | undefined)[]): number[][] {
  const groups: number[][] = [];
  let last: boolean | undefined;
  kinds.forEach((kind, i) => {
    const shell = kind === "shell";
    if (shell !== last) groups.push([]);
    groups[groups.length - 1].push(i);
    last = shell;
  });
  return groups;
}

/**
 * One key per real file (R-TOOL-3): device and inode of what exists (a hard link, a symlink and
 * another spelling of the path are one file), the symlink-resolved path of what does not yet.
 */
function fileKey(abs: string): string {
  const real = realPathLoose(abs);
  try {
    const st = statSync(real);
    return `${st.isDirectory() ? "dir" : "inode"}:${st.dev}:${st.ino}`;
  } catch {
    return `path:${real}`;
  }
}

export function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** One question to the person at a time, in the order they were raised. */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task, task);
    this.tail = next.catch(() => {});
    return next;
  }
}

/**
 * Runs the batch's calls in R-TOOL-3's order. Sequential: one after another. Parallel: `bash`
 * may touch any file, so it is a barrier; each run of calls between barriers starts when the one
 * before has finished (its files are identified then, after any link an earlier command made),
 * and within it calls naming the same real file wait for the earlier ones.
 */
export async function runInOrder(
  kinds: (ToolKind | undefined)[],
  absolutePaths: (i: number) => string[],
  parallel: boolean,
  run: (i: number) => Promise<void>,
): Promise<void> {
  if (!parallel) {
    for (let i = 0; i < kinds.length; i++) await run(i);
    return;
  }
  for (const group of barrierGroups(kinds)) {
    const keys = group.map((i) => absolutePaths(i).map(fileKey));
    const tasks: Promise<void>[] = [];
    group.forEach((i, g) => {
      // Two reads of one folder (grep, glob) name no file, so neither waits for the other: two
      // runaway greps of one batch must not hold it for twice their timer (R-BIG-1).
      const reads = (h: number) => kinds[group[h]] === "read" && kinds[i] === "read";
      const shared = (h: number) => keys[h].filter((k) => keys[g].includes(k));
      const before = tasks.filter((_, h) => shared(h).some((k) => !(reads(h) && k.startsWith("dir:"))));
      tasks.push(Promise.all(before).then(() => run(i)));
    });
    await Promise.all(tasks);
  }
}
