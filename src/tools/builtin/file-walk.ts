// File listing for grep and glob: fast-glob plus `.gitignore` rules (the `ignore` package),
// never descending into `.git` or `node_modules`.
import { readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { Options as GlobOptions } from "fast-glob";
import ignore, { type Ignore } from "ignore";
import { isInside } from "../paths.js";

// fast-glob (with micromatch) is loaded on the first glob/grep call: a third of the bundle's
// start path otherwise, for runs that may never list files.
const loadFastGlob = () => import("fast-glob");
let fastGlob: ReturnType<typeof loadFastGlob> | undefined;

/** Limits of one listing: a walk of `/` or a symlink loop must not hang tern or outlive a cancel (R-TOOL-6). */
export interface ListBounds {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxEntries?: number;
}

export class ListingStopped extends Error {
  constructor(readonly why: "cancelled" | "timeout" | "too_many") {
    super(
      why === "cancelled"
        ? "cancelled"
        : why === "timeout"
          ? "listing the files took too long; narrow the path or pattern"
          : "too many files to search; narrow the path or pattern",
    );
    this.name = "ListingStopped";
  }
}

const DEFAULT_BOUNDS = { timeoutMs: 20_000, maxEntries: 200_000 };

async function fg(pattern: string, options: GlobOptions, bounds: ListBounds = {}): Promise<string[]> {
  fastGlob ??= loadFastGlob();
  const stream = (await fastGlob).default.stream(pattern, options) as NodeJS.ReadableStream & {
    destroy(): void;
  };
  const maxEntries = bounds.maxEntries ?? DEFAULT_BOUNDS.maxEntries;
  return new Promise<string[]>((resolve, reject) => {
    const out: string[] = [];
    const stop = (err?: Error) => {
      clearTimeout(timer);
      bounds.signal?.removeEventListener("abort", onAbort);
      stream.destroy();
      if (err) reject(err);
      else resolve(out);
    };
    const timer = setTimeout(
      () => stop(new ListingStopped("timeout")),
      bounds.timeoutMs ?? DEFAULT_BOUNDS.timeoutMs,
    );
    const onAbort = () => stop(new ListingStopped("cancelled"));
    if (bounds.signal?.aborted) return stop(new ListingStopped("cancelled"));
    bounds.signal?.addEventListener("abort", onAbort, { once: true });
    stream.on("data", (entry: unknown) => {
      out.push(String(entry));
      if (out.length > maxEntries) stop(new ListingStopped("too_many"));
    });
    stream.on("error", (err: Error) => stop(err));
    stream.on("end", () => stop());
  });
}

const ALWAYS_SKIPPED = ["**/.git/**", "**/node_modules/**"];

interface IgnoreScope {
  /** Folder of the .gitignore, relative to the root, "" for the root itself. */
  dir: string;
  rules: Ignore;
}

/** Loads every `.gitignore` under `root`; each applies to the paths below its folder. */
async function loadGitignores(root: string, bounds: ListBounds): Promise<IgnoreScope[]> {
  const found = await fg(
    "**/.gitignore",
    { cwd: root, dot: true, ignore: ALWAYS_SKIPPED, suppressErrors: true },
    bounds,
  );
  const scopes: IgnoreScope[] = [];
  for (const rel of found.sort()) {
    try {
      const text = await readFile(join(root, rel), "utf8");
      const dir = dirname(rel);
      scopes.push({ dir: dir === "." ? "" : dir, rules: ignore().add(text) });
    } catch {
      // An unreadable .gitignore only means fewer files are hidden.
    }
  }
  return scopes;
}

function ignoredBy(scopes: IgnoreScope[], relToRoot: string): boolean {
  for (const s of scopes) {
    if (s.dir === "") {
      if (s.rules.ignores(relToRoot)) return true;
    } else if (relToRoot.startsWith(`${s.dir}/`)) {
      if (s.rules.ignores(relToRoot.slice(s.dir.length + 1))) return true;
    }
  }
  return false;
}

/**
 * Absolute paths of the files under `base` matching `pattern`, sorted, without gitignored
 * ones. The workspace's ignore files apply when `base` lies inside it.
 */
/** Brace alternatives a pattern may expand to; expansion runs synchronously and cannot be cancelled. */
const MAX_BRACE_EXPANSIONS = 1024;

/** How many patterns `{a,b}` groups and `{1..9}` ranges multiply a glob into (an upper estimate). */
export function braceExpansions(pattern: string): number {
  let total = 1;
  const stack: { commas: number; start: number }[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "{") stack.push({ commas: 0, start: i });
    else if (c === "," && stack.length > 0) stack[stack.length - 1].commas++;
    else if (c === "}" && stack.length > 0) {
      const group = stack.pop()!;
      const body = pattern.slice(group.start + 1, i);
      const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.-?\d+)?$/.exec(body);
      const factor = range ? Math.abs(code(range[2]) - code(range[1])) + 1 : group.commas + 1;
      total *= Math.max(1, factor);
      if (total > Number.MAX_SAFE_INTEGER) return total;
    }
  }
  return total;
}

const code = (bound: string) => (/^-?\d+$/.test(bound) ? Number(bound) : bound.charCodeAt(0));

export async function listFiles(
  base: string,
  pattern: string,
  workspace: string,
  bounds: ListBounds = {},
): Promise<string[]> {
  if (braceExpansions(pattern) > MAX_BRACE_EXPANSIONS)
    throw new Error(
      `the pattern expands to more than ${MAX_BRACE_EXPANSIONS} alternatives; use fewer {…} groups`,
    );
  const root = isInside(workspace, base) ? workspace : base;
  const [files, scopes] = await Promise.all([
    fg(
      pattern,
      { cwd: base, dot: true, onlyFiles: true, ignore: ALWAYS_SKIPPED, suppressErrors: true, absolute: true },
      bounds,
    ),
    loadGitignores(root, bounds),
  ]);
  const kept: string[] = [];
  for (const abs of files) {
    const rel = relative(root, abs).split(sep).join("/");
    if (!ignoredBy(scopes, rel)) kept.push(abs);
  }
  return kept.sort();
}
