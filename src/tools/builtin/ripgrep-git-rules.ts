// ripgrep and git read a few ignore rules differently (R-EDIT-5); tern's listings follow git.
// ripgrep is given the repository's excludes (info/exclude, core.excludesFile; it is otherwise told
// to skip them, since it looks for them elsewhere than git does), and where a rule is one it
// reads otherwise (a POSIX class such as `[[:alpha:]]`), the built-in walk lists instead.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { commonGitDir, userExcludesFile } from "./git-excludes.js";
import { IGNORE_FILES } from "./ignore-rules.js";

/** Rules ripgrep reads otherwise than git: POSIX classes (`[[:alpha:]]`), which git's wildmatch knows. */
export const RIPGREP_MISREADS = /\[\[?:[a-z]+:\]/;

/**
 * The repository's excludes (git-excludes.ts) as ripgrep arguments: lowest precedence, the
 * later file first, patterns rooted at the folder rg runs from (the repository's top). `undefined`:
 * rules ripgrep would read otherwise than git, so the built-in walk lists instead (R-EDIT-5).
 */
export function gitRulesForRipgrep(root: string): string[] | undefined {
  const top = IGNORE_FILES.map((f) => readIfThere(join(root, f)));
  if (top.some((t) => t !== undefined && RIPGREP_MISREADS.test(t))) return undefined;
  if (!existsSync(join(root, ".git"))) return [];
  const gitDir = commonGitDir(root);
  const files = [userExcludesFile(gitDir), ...(gitDir ? [join(gitDir, "info", "exclude")] : [])];
  const args: string[] = [];
  for (const file of files) {
    const text = readIfThere(file);
    if (text === undefined || text.trim() === "") continue;
    if (RIPGREP_MISREADS.test(text)) return undefined;
    args.push("--ignore-file", file);
  }
  return args;
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Whether an ignore file ripgrep listed holds rules it reads otherwise than git. */
export function misreadIgnoreFileListed(dir: string, rels: readonly string[]): boolean {
  return rels.some((rel) => {
    const name = rel.slice(rel.lastIndexOf("/") + 1);
    if (!(IGNORE_FILES as readonly string[]).includes(name)) return false;
    const text = readIfThere(join(dir, rel));
    return text !== undefined && RIPGREP_MISREADS.test(text);
  });
}
