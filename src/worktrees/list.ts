// `tern worktrees` and `/worktree`: the worktrees tern made in this repository, as git knows them
// (`git worktree list`), with their branch and what they hold.
import { join } from "node:path";
import { type GitOptions, git } from "./git.js";
import type { RepoPlace } from "./place.js";
import { type WorktreeState, worktreeState } from "./state.js";

export async function listWorktrees(place: RepoPlace, opts: GitOptions = {}): Promise<WorktreeState[]> {
  const porcelain = await git(place.root, ["worktree", "list", "--porcelain"], opts);
  const prefix = `${place.dir}/`;
  const names = porcelain
    .split("\n")
    .filter((line) => line.startsWith("worktree "))
    .map((line) => line.slice("worktree ".length))
    .filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes("/"))
    .map((path) => path.slice(prefix.length));
  const out: WorktreeState[] = [];
  for (const name of names.sort())
    out.push(
      await worktreeState(place, name, opts).catch(() => ({
        name,
        branch: "?",
        path: join(place.dir, name),
        changed: 0,
        commits: 0,
      })),
    );
  return out;
}
