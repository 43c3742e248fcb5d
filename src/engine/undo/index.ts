// The face of undo/ for a running session: restoring files, withdrawing turns and diffs (undo.ts)
// load with the first undo, rewind, redo or /diff; most sessions never take one.
export const loadUndo = () => import("./undo.js");
