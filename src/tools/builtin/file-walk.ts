// File listing for grep, glob and `@file`: ripgrep's walk when `rg` is on the PATH, else the
// built-in walk (tree-walk.ts) under the same rules, then the glob matched here (picomatch, dot
// files included) so both engines pick exactly the same files.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { isInside } from "../paths.js";
import { IGNORE_FILES } from "./ignore-rules.js";
import { gitRulesForRipgrep, misreadIgnoreFileListed } from "./ripgrep-git-rules.js";
import { firstSorted, underDir } from "./listed-paths.js";
import { ripgrepPath, runRipgrep } from "./ripgrep.js";
import { walkTree, WalkStopped } from "./tree-walk.js";

/** Limits of one listing: a walk of `/` or a symlink loop must not hang tern or outlive a cancel (R-TOOL-6). */
export interface ListBounds {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxEntries?: number;
  /** Only the first this many paths (in order) are wanted; the listing still counts them all. */
  first?: number;
  /** Real folders left out of the listing (TERN_HOME: reading it asks, §10). */
  hidden?: string[];
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

/** R-BIG-1: nothing a tool lists or searches holds a turn past 10 s. */
export const LISTING_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_ENTRIES = 400_000;

/** Brace alternatives a pattern may expand to (a guard kept from the glob library days). */
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

type Picomatch = typeof import("picomatch");
// Required on first use from the installed package (see tools/policy/rules.ts for why).
let picomatch: Picomatch | undefined;
function loadPicomatch(): Picomatch {
  picomatch ??= createRequire(import.meta.url)("picomatch") as Picomatch;
  return picomatch;
}

/** A glob as a folder to walk and a matcher for paths relative to it. */
export interface GlobPlan {
  dir: string;
  matches(rel: string): boolean;
  /** The last segment when it is `*.ext`-like: lets ripgrep skip other files early. */
  nameGlob?: string;
  /** Whether a file name can match `nameGlob` (the built-in walk's early filter). */
  nameMatches?: (name: string) => boolean;
}

// `**`, `**/*` and `**/*.ext`, the globs grep and glob are mostly given, planned without
// picomatch (loading it cost ~5 ms of a glob's own ~25): what picomatch (dot files included)
// would match, every path, or every name ending in `.ext`.
function simplePlan(base: string, cleaned: string): GlobPlan | undefined {
  if (cleaned === "**" || cleaned === "**/*") return { dir: resolve(base), matches: () => true };
  const ext = /^\*\*\/\*(\.[\w.-]+)$/.exec(cleaned)?.[1];
  if (ext === undefined) return undefined;
  return {
    dir: resolve(base),
    matches: () => true,
    nameGlob: `*${ext}`,
    nameMatches: (n) => n.endsWith(ext),
  };
}

export function planGlob(base: string, pattern: string): GlobPlan {
  if (braceExpansions(pattern) > MAX_BRACE_EXPANSIONS)
    throw new Error(
      `the pattern expands to more than ${MAX_BRACE_EXPANSIONS} alternatives; use fewer {…} groups`,
    );
  const cleaned = pattern.replace(/^(\.\/)+/, "");
  const simple = simplePlan(base, cleaned);
  if (simple) return simple;
  const pm = loadPicomatch();
  const scan = pm.scan(cleaned);
  // A static leading part (`src/`, `../x/`, an absolute folder) is walked directly.
  const staticPart = scan.isGlob ? scan.base : dirname(cleaned) === "." ? "" : dirname(cleaned);
  const rest = scan.isGlob ? scan.glob : cleaned.slice(staticPart === "" ? 0 : staticPart.length + 1);
  // Normalized (listed paths are built on it by concatenation).
  const dir = resolve(base, staticPart);
  const last = rest.slice(rest.lastIndexOf("/") + 1);
  const nameGlob = /^\*\.[\w.{},-]+$/.test(last) && !rest.includes("\\") ? last : undefined;
  const nameMatches = nameGlob ? pm(nameGlob, { dot: true }) : undefined;
  // `**` matches every listed path: no matcher run per file (the `@file` index lists with it).
  // Nor does `**/*.ext` (dot files included): it is its last segment's test, which both engines
  // already made (ripgrep's type filter, the walk's `fileName`); re-testing cost ~8 ms a glob.
  const isMatch =
    rest === "" || rest === "**" || rest === "**/*" || (nameGlob !== undefined && rest === `**/${last}`)
      ? () => true
      : pm(rest, { dot: true });
  return { dir, matches: (rel) => isMatch(rel), nameGlob, nameMatches };
}

/** Whether a folder from `from` up to `to` (both included; `to` an ancestor) holds an ignore file. */
function ignoreFilesBetween(from: string, to: string): boolean {
  for (let d = from; ; d = dirname(d)) {
    if (IGNORE_FILES.some((f) => existsSync(join(d, f)))) return true;
    if (d === to || d === dirname(d)) return false;
  }
}

const aboveRootChecked = new Map<string, boolean>();

/** How ripgrep is run for a folder: from where, on what, and whether it reads parent folders' ignore files. */
export interface RgPlan {
  rg: string;
  cwd: string;
  /** The searched folder relative to `cwd` ("." for itself), ending in "/" otherwise. */
  prefix: string;
  args: string[];
}

/**
 * ripgrep, when it is on the PATH and its rules give the same answer here. It reads the ignore
 * files of every folder above the one it searches, up to `/`: when none lies above the root, it
 * runs from the root (reading those between the root and the folder, as the built-in walk does);
 * else only when none lies between them either, told not to look up.
 */
export function ripgrepFor(root: string, dir: string): RgPlan | undefined {
  const rg = ripgrepPath(root);
  if (!rg) return undefined;
  const parent = dirname(root);
  let above = aboveRootChecked.get(root);
  if (above === undefined) {
    above = parent !== root && ignoreFilesBetween(parent, "/");
    aboveRootChecked.set(root, above);
  }
  const rel = relative(root, dir).split(sep).join("/");
  const git = gitRulesForRipgrep(root);
  if (!git) return undefined;
  if (!above)
    return { rg, cwd: root, prefix: rel === "" ? "" : `${rel}/`, args: [...git, rel === "" ? "." : rel] };
  if (dir !== root && (git.length > 0 || ignoreFilesBetween(dirname(dir), root))) return undefined;
  return { rg, cwd: dir, prefix: "", args: [...git, "--no-ignore-parent", "."] };
}

/** A path ripgrep printed, relative to the searched folder. */
export function fromRipgrep(plan: RgPlan, printed: string): string {
  const path = printed.startsWith("./") ? printed.slice(2) : printed;
  return path.startsWith(plan.prefix) ? path.slice(plan.prefix.length) : path;
}

/** ripgrep's own early filter for a `*.ext` last segment: a type, which (unlike -g) never un-ignores. */
export const typeArgs = (nameGlob?: string) =>
  nameGlob ? ["--type-add", `tern:${nameGlob}`, "-t", "tern"] : [];

/** Every listed file under `dir` (relative to it), by ripgrep or the built-in walk; unsorted. */
async function listAll(root: string, dir: string, bounds: ListBounds, plan: GlobPlan): Promise<string[]> {
  const deadline = performance.now() + (bounds.timeoutMs ?? LISTING_TIMEOUT_MS);
  const maxEntries = bounds.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const rg = ripgrepFor(root, dir);
  if (rg) {
    const out: string[] = [];
    const outcome = await runRipgrep(rg.rg, {
      args: ["--files", ...typeArgs(plan.nameGlob), ...rg.args],
      cwd: rg.cwd,
      deadline,
      signal: bounds.signal,
      separator: "\0",
      onRecord: (rec) => {
        if (out.length <= maxEntries) out.push(fromRipgrep(rg, rec));
      },
    });
    if (outcome === "cancelled" || outcome === "timeout") throw new ListingStopped(outcome);
    if (out.length > maxEntries) throw new ListingStopped("too_many");
    // A deeper ignore file ripgrep reads otherwise than git: the built-in walk answers instead.
    if (outcome === "done" && !misreadIgnoreFileListed(dir, out)) return out;
    // rg failed to run: the built-in walk answers instead.
  }
  try {
    return await walkTree(root, dir, {
      signal: bounds.signal,
      deadline,
      maxEntries,
      fileName: plan.nameMatches,
    });
  } catch (err) {
    if (err instanceof WalkStopped) throw new ListingStopped(err.why);
    throw err;
  }
}

/** A listing: the folder walked and the files' paths relative to it, `/`-separated, sorted. */
export interface Listing {
  dir: string;
  rels: string[];
  /** How many files matched (more than `rels` holds when `first` cut it). */
  total: number;
}

/**
 * The files under `base` matching `pattern`, sorted, without ignored ones, relative to the
 * folder walked (grep's built-in search keeps these: 100,000 absolute paths were ~12 MB more).
 * The workspace's ignore files apply when `base` lies inside it.
 */
export async function listRelative(
  base: string,
  pattern: string,
  workspace: string,
  bounds: ListBounds = {},
): Promise<Listing> {
  const plan = planGlob(base, pattern);
  if (!existsSync(plan.dir)) return { dir: plan.dir, rels: [], total: 0 };
  const root = isInside(workspace, plan.dir) ? workspace : plan.dir;
  const rels = await listAll(root, plan.dir, bounds, plan);
  // Only hidden folders inside the listed one can hold listed files (the listing never leaves
  // it); one holding it hides them all. Then a prefix test per file: `join` and `relative` per
  // file cost a third of a 100,000-file listing.
  if (bounds.hidden?.some((h) => isInside(h, plan.dir))) return { dir: plan.dir, rels: [], total: 0 };
  const inside = (bounds.hidden ?? [])
    .filter((h) => isInside(plan.dir, h))
    .map((h) => `${relPath(plan.dir, h)}/`);
  const kept: string[] = [];
  for (const rel of rels) {
    if (plan.matches(rel) && (inside.length === 0 || !inside.some((h) => rel.startsWith(h)))) kept.push(rel);
  }
  const sorted = bounds.first === undefined ? kept.sort() : firstSorted(kept, bounds.first);
  return { dir: plan.dir, rels: sorted, total: kept.length };
}

/** Absolute paths of listRelative's files, sorted. */
export async function listFiles(
  base: string,
  pattern: string,
  workspace: string,
  bounds: ListBounds = {},
): Promise<string[]> {
  const { dir, rels } = await listRelative(base, pattern, workspace, bounds);
  return rels.map(underDir(dir));
}

/** `/`-separated path of `abs` relative to `from`. */
export const relPath = (from: string, abs: string) => relative(from, abs).split(sep).join("/");
