// The face of subagents/ for what only some children need: a worktree of their own (R-WT-2) loads
// git's side (child_process) only when a child asks for isolation.
export const loadIsolation = () => import("./isolation.js");
