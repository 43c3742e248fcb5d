// A sub-agent in its own git worktree (R-WT-2): made from the parent's current state (uncommitted
// changes included) so the child sees what the parent sees, and the parent's files stay untouched
// until someone applies the child's branch. Parallel isolated children never see each other's writes.
import type { ToolResult } from "../../tools/types.js";
import {
  commitAll,
  createWorktree,
  removeWorktree,
  type Worktree,
  WorktreeError,
  worktreeChanges,
} from "../../worktrees/index.js";

export type Isolation = "worktree";

/** The child's worktree, or the one line saying why it could not have one. */
export async function isolatedPlace(parentCwd: string, agent: string): Promise<Worktree | string> {
  try {
    return await createWorktree({ cwd: parentCwd, namePrefix: agent, fromCurrentState: true });
  } catch (err) {
    if (err instanceof WorktreeError)
      return `isolation: worktree needs a git repository with a commit: ${err.message}`;
    throw err;
  }
}

/**
 * Once the child is done: its work committed on its branch, and the result told where it is with
 * a diffstat; a child that changed nothing leaves no worktree and no branch behind.
 */
export async function closeIsolated(
  wt: Worktree,
  description: string,
  result: ToolResult,
): Promise<ToolResult> {
  let note: string;
  try {
    await commitAll(wt.path, `tern: sub-agent work: ${description}`);
    const { patch, stat } = await worktreeChanges(wt.place, wt.name);
    if (!patch) {
      await removeWorktree(wt.place, wt.name, { force: true });
      note = "[isolated in a worktree: it changed no file; the worktree is removed]";
    } else
      note =
        `[isolated: worktree ${wt.path}, branch ${wt.branch}; your files are unchanged]\n${stat}\n` +
        `To take its changes: git diff ${wt.base.slice(0, 12)} ${wt.branch} | git apply (or /worktree apply ${wt.name}).`;
  } catch (err) {
    note = `[isolated: worktree ${wt.path}, branch ${wt.branch}; its changes could not be summed up: ${(err as Error).message}]`;
  }
  const [first, ...rest] = result.content;
  if (first?.type !== "text")
    return { ...result, content: [...result.content, { type: "text", text: note }] };
  return { ...result, content: [{ ...first, text: `${first.text}\n${note}` }, ...rest] };
}
