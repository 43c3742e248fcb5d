// The face of hook-points/: the user's hooks wired to a session's points load only for a session
// that has hooks (open.ts asks here); a run without hooks never compiles the hook runner.
export const loadSessionHooks = () => import("./session-hooks.js");
