// The ignore rules of a folder walk, as ripgrep reads them: `.gitignore`, `.ignore` and
// `.rgignore` in every folder, each applying below its folder, and at a repository's top its
// info/exclude and the user's core.excludesFile below them (git-excludes.ts); a deeper file decides before a
// shallower one, `.rgignore` before `.ignore` before `.gitignore` in one folder, the last matching
// line of a file wins (so `!negations` work). A folder holding `.git` starts a repository: the
// `.gitignore` files above it no longer apply inside it (`.ignore` files still do).
import { readFile } from "node:fs/promises";
import ignore, { type Ignore } from "ignore";
import { repoExcludes } from "./git-excludes.js";

type Verdict = { ignored: boolean; unignored: boolean };

/**
 * One path's verdict from one file's rules, without the package's cache: `test` keeps every
 * path it judged (and each parent folder's verdict) for good, and a walk judges each path once,
 * so on a 100,000-file tree that cache held ~35 MB and took half the walk's time. The rule scan
 * underneath (`_rules.test`, the pinned version's) is used when it is there; nor do we want
 * the package's look at parent folders: the walk never enters an ignored folder, and ripgrep
 * judges a path by itself once its folder is entered (a folder a deeper file re-includes keeps
 * its files). test/tools/search-engines.test.ts holds the fast path to being there.
 */
export function verdictOf(rules: Ignore, path: string): Verdict {
  const scan = (rules as unknown as { _rules?: { test?(p: string, mode: string): Verdict } })._rules;
  const bytes = asBytes(path);
  return typeof scan?.test === "function" ? scan.test(bytes, "regex") : rules.test(bytes);
}

/**
 * Git's wildmatch (and ripgrep's globs) match bytes: `?` is one byte of UTF-8, so `??.txt` hides
 * `é.txt` and `?.txt` does not, and `[[:alpha:]]` is ASCII. Rules and paths are matched as their
 * UTF-8 bytes, one character per byte (R-EDIT-5).
 */
const asBytes = (text: string): string =>
  /[^\x00-\x7f]/.test(text) ? Buffer.from(text, "utf8").toString("latin1") : text;

/** Case-sensitive, as git on Linux and ripgrep match (the package folds case by default). */
export const compileRules = (text: string): Ignore => ignore({ ignorecase: false }).add(asBytes(text));

/** Read in this order, so the later ones (higher precedence) sit deeper in the chain. */
export const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"] as const;

interface Scope {
  /** Folder of the file relative to the walk's root, "" or ending in "/". */
  dir: string;
  rules: Ignore;
  git: boolean;
  /** The folder holds `.git`: gitignore scopes above this one stop applying. */
  repoRoot: boolean;
}

export class IgnoreChain {
  private constructor(private readonly scopes: readonly Scope[]) {}

  static readonly empty = new IgnoreChain([]);

  /** The chain for folder `dir` (relative to the root, "" or ending in "/"), given its entry names. */
  async enter(dir: string, absDir: string, names: ReadonlySet<string>): Promise<IgnoreChain> {
    const repoRoot = names.has(".git");
    const added: Scope[] = [];
    // The user's excludes file and info/exclude: below every .gitignore of the repository.
    if (repoRoot)
      for (const text of repoExcludes(absDir))
        added.push({ dir, rules: compileRules(text), git: true, repoRoot });
    for (const file of IGNORE_FILES) {
      if (!names.has(file)) continue;
      try {
        const text = await readFile(`${absDir}/${file}`, "utf8");
        added.push({ dir, rules: compileRules(text), git: file === ".gitignore", repoRoot });
      } catch {
        // An unreadable ignore file only means fewer files are hidden.
      }
    }
    if (added.length === 0 && !repoRoot) return this;
    // A repository root with no ignore file still cuts the gitignore chain above it.
    if (added.length === 0) added.push({ dir, rules: ignore(), git: false, repoRoot });
    return new IgnoreChain([...this.scopes, ...added]);
  }

  /** Whether `rel` (relative to the root, `/`-separated) is ignored; folders are judged as folders. */
  ignores(rel: string, isDir: boolean): boolean {
    let pastRepoRoot = false;
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const scope = this.scopes[i];
      if (!(scope.git && pastRepoRoot)) {
        const sub = rel.slice(scope.dir.length) + (isDir ? "/" : "");
        try {
          const verdict = verdictOf(scope.rules, sub);
          if (verdict.ignored) return true;
          if (verdict.unignored) return false;
        } catch {
          // A name the ignore package cannot judge is kept.
        }
      }
      if (scope.repoRoot && (i === 0 || this.scopes[i - 1].dir !== scope.dir)) pastRepoRoot = true;
    }
    return false;
  }
}
