// The built-in folder walk for grep, glob and `@file` (used when ripgrep is not on the PATH):
// ripgrep's listing rules (ignore-rules.ts), hidden files included, symbolic links neither
// followed nor listed, `.git` and `node_modules` never entered. Ignored folders are pruned, so
// an ignored `build/` costs one test, not a walk. Folders are read a few at a time.
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { relative, sep } from "node:path";
import { IgnoreChain } from "./ignore-rules.js";

/** Names never entered nor listed, at any depth. */
export const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

export interface WalkLimits {
  signal?: AbortSignal;
  deadline: number;
  maxEntries: number;
  /**
   * Files whose name fails this are left out before the ignore rules judge them (a `*.json` glob
   * then tests a tenth of the files, and the ignore matcher's cache holds a tenth of the paths).
   */
  fileName?: (name: string) => boolean;
}

export type WalkStop = "cancelled" | "timeout" | "too_many";

export class WalkStopped extends Error {
  constructor(readonly why: WalkStop) {
    super(why);
  }
}

const PARALLEL_READS = 16;

async function entriesOf(abs: string): Promise<Dirent[]> {
  try {
    return await readdir(abs, { withFileTypes: true });
  } catch {
    return []; // unreadable or vanished: nothing to list, as ripgrep does
  }
}

/** The rules in force at `dir` from the ignore files of the folders from `root` down to it. */
async function chainAt(root: string, dir: string): Promise<IgnoreChain> {
  let chain = IgnoreChain.empty;
  const rel = relative(root, dir).split(sep).join("/");
  const parts = rel === "" ? [] : rel.split("/");
  let prefix = "";
  for (let i = 0; i < parts.length; i++) {
    const abs = prefix === "" ? root : `${root}/${prefix.slice(0, -1)}`;
    chain = await chain.enter(prefix, abs, new Set((await entriesOf(abs)).map((e) => e.name)));
    prefix += `${parts[i]}/`;
  }
  return chain;
}

/**
 * Files under `dir` (paths relative to it, `/`-separated, unsorted) under the ignore rules of
 * `root` (an ancestor of `dir` or `dir` itself). Throws WalkStopped past the limits.
 */
export async function walkTree(root: string, dir: string, limits: WalkLimits): Promise<string[]> {
  const fromRootToDir = relative(root, dir).split(sep).join("/");
  const rootPrefix = fromRootToDir === "" ? "" : `${fromRootToDir}/`;
  const out: string[] = [];
  const queue: { rel: string; chain: IgnoreChain }[] = [{ rel: "", chain: await chainAt(root, dir) }];
  const check = () => {
    if (limits.signal?.aborted) throw new WalkStopped("cancelled");
    if (performance.now() > limits.deadline) throw new WalkStopped("timeout");
    if (out.length > limits.maxEntries) throw new WalkStopped("too_many");
  };
  const visit = async (rel: string, parent: IgnoreChain) => {
    const abs = rel === "" ? dir : `${dir}/${rel.slice(0, -1)}`;
    const entries = await entriesOf(abs);
    const fromRoot = rootPrefix + rel;
    const chain = await parent.enter(fromRoot, abs, new Set(entries.map((e) => e.name)));
    for (const e of entries) {
      if (ALWAYS_SKIPPED.has(e.name)) continue;
      const isDir = e.isDirectory();
      if (!isDir && (!e.isFile() || (limits.fileName && !limits.fileName(e.name)))) continue;
      if (chain.ignores(fromRoot + e.name, isDir)) continue;
      if (isDir) queue.push({ rel: `${rel}${e.name}/`, chain });
      else out.push(rel + e.name);
    }
  };
  const running = new Set<Promise<void>>();
  while (queue.length > 0 || running.size > 0) {
    check();
    while (queue.length > 0 && running.size < PARALLEL_READS) {
      const next = queue.pop()!;
      const job: Promise<void> = visit(next.rel, next.chain).finally(() => running.delete(job));
      running.add(job);
    }
    if (running.size > 0) await Promise.race(running);
  }
  check();
  return out;
}
