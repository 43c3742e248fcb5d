// The face of checkpoint/: the shadow repository's code (git through child_process) loads with
// the first snapshot or undo, never on a run that changes no file.
export const loadShadowRepo = () => import("./shadow-repo.js");
