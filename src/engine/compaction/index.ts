// The face of compaction/: the turn (a context over its budget) and the session (`/compact`) reach
// it here, and its code loads with the first compaction: most runs never get there.
export const loadCompaction = () => import("./compaction.js");
