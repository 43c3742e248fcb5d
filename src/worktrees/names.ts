// Worktree names: a person may type one (`--worktree fix-login`), else a short generated one.
// They become a folder name and a branch name (`tern/<name>`), so git's ref rules bound them.
import { WorktreeError } from "./git.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const WORDS = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron", "iris", "juniper"];

export const BRANCH_PREFIX = "tern/";

export function checkName(name: string): string {
  if (!NAME.test(name) || name.endsWith(".lock") || name.includes(".."))
    throw new WorktreeError(
      `worktree name '${name}' is not usable (letters, digits, '.', '_', '-'; at most 64; no '..' or '.lock')`,
    );
  return name;
}

/** A short name not yet taken, e.g. `heron-4f2a`. */
export function generatedName(taken: (name: string) => boolean, prefix?: string): string {
  for (;;) {
    const word = prefix ?? WORDS[Math.floor(Math.random() * WORDS.length)];
    const name = `${word}-${Math.floor(Math.random() * 0x10000)
      .toString(16)
      .padStart(4, "0")}`;
    if (!taken(name)) return name;
  }
}

export const branchOf = (name: string): string => `${BRANCH_PREFIX}${name}`;
