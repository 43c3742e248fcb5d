// The ignore rules git keeps outside `.gitignore` files (R-EDIT-5): the repository's
// `info/exclude` and the user's `core.excludesFile` (default `$XDG_CONFIG_HOME/git/ignore`, else
// `~/.config/git/ignore`). Both apply inside a repository, rooted at its top, below every
// `.gitignore` (exclude above the user's file), as `git status` reads them. The setting is read
// from git's config files (system, user, repository; the last one wins) without running git;
// `include` directives are not followed.
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** The repository's shared git folder for a folder holding `.git` (a folder, or a worktree's file). */
export function commonGitDir(repoRoot: string): string | undefined {
  const dotGit = join(repoRoot, ".git");
  let gitDir = dotGit;
  try {
    if (statSync(dotGit).isFile()) {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? "")?.[1];
      if (!pointer) return undefined;
      gitDir = resolve(repoRoot, pointer);
    }
  } catch {
    return undefined;
  }
  const common = readText(join(gitDir, "commondir"))?.trim();
  return common ? resolve(gitDir, common) : gitDir;
}

/** `core.excludesFile` from one config file's text (the last setting in it), if any. */
function excludesFileSetting(text: string): string | undefined {
  let section = "";
  let found: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const head = /^\[([^\]\s"]+)(?:\s+"[^"]*")?\]\s*(.*)$/.exec(line);
    if (head) {
      section = head[1].toLowerCase();
      continue;
    }
    if (section !== "core") continue;
    const kv = /^excludesfile\s*=\s*(.*)$/i.exec(line);
    if (!kv) continue;
    let value = kv[1].replace(/\s+[#;].*$/, "").trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    found = value;
  }
  return found;
}

function expandHome(path: string, home: string): string {
  return path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

/** The user's excludes file in force for a repository, as git finds it. */
export function userExcludesFile(gitDir: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || homedir();
  const xdg =
    env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, ".config");
  const configs = ["/etc/gitconfig", join(xdg, "git", "config"), join(home, ".gitconfig")];
  if (gitDir) configs.push(join(gitDir, "config"));
  let setting: string | undefined;
  for (const file of configs) {
    const text = readText(file);
    const value = text === undefined ? undefined : excludesFileSetting(text);
    if (value !== undefined) setting = value;
  }
  if (setting === undefined || setting === "") return join(xdg, "git", "ignore");
  const path = expandHome(setting, home);
  return isAbsolute(path) ? path : resolve(gitDir ? resolve(gitDir, "..") : home, path);
}

/** The texts of a repository's excludes, lowest precedence first (the user's file, then info/exclude). */
export function repoExcludes(repoRoot: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const gitDir = commonGitDir(repoRoot);
  const texts: string[] = [];
  const user = readText(userExcludesFile(gitDir, env));
  if (user?.trim()) texts.push(user);
  const info = gitDir ? readText(join(gitDir, "info", "exclude")) : undefined;
  if (info?.trim()) texts.push(info);
  return texts;
}
