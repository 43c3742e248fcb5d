// `.worktreeinclude` (Claude Code's file, gitignore syntax, at the repository's root): untracked
// files a fresh worktree lacks, `.env` the usual one. As in Claude Code, a file is copied only when
// it matches a pattern AND git ignores it, so nothing tracked is duplicated; regular files only,
// never through a symlink, never over a file the worktree already has.
import { copyFileSync, existsSync, lstatSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { type GitOptions, git } from "./git.js";
import { WORKTREES_DIR } from "./place.js";

export const INCLUDE_FILE = ".worktreeinclude";

const lines = (z: string): string[] => z.split("\0").filter(Boolean);

/** Copies what `.worktreeinclude` names from `root` into `worktree`; returns the paths copied. */
export async function copyIncluded(root: string, worktree: string, opts: GitOptions = {}): Promise<string[]> {
  const patterns = join(root, INCLUDE_FILE);
  if (!existsSync(patterns)) return [];
  const matched = lines(
    await git(root, ["ls-files", "-z", "--others", "--ignored", `--exclude-from=${patterns}`], opts),
  ).filter((p) => !p.startsWith(`${WORKTREES_DIR}/`));
  if (matched.length === 0) return [];
  // check-ignore exits 1 when nothing is ignored: that is an answer, not a failure.
  const ignored = new Set(
    lines(
      await git(root, ["check-ignore", "-z", "--stdin"], { ...opts, input: `${matched.join("\0")}\0` }).catch(
        () => "",
      ),
    ),
  );
  const copied: string[] = [];
  for (const path of matched) {
    if (!ignored.has(path)) continue;
    const from = join(root, path);
    const to = join(worktree, path);
    if (!lstatSync(from).isFile() || existsSync(to)) continue;
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    copied.push(path);
  }
  return copied;
}
