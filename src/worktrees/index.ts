// The face of worktrees/: everything a front end or the engine uses.
export { git, repoRoot, WorktreeError } from "./git.js";
export { createWorktree, type CreateOptions, type Worktree } from "./create.js";
export { commitAll } from "./commit.js";
export { isInTernWorktree, repoPlace, type RepoPlace } from "./place.js";
export { finishWorktree, removeWorktree, worktreeState, type WorktreeState } from "./state.js";
export { listWorktrees } from "./list.js";
export { applyWorktree, worktreeChanges } from "./changes.js";
export { INCLUDE_FILE } from "./include.js";
