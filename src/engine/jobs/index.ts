// The face of engine/jobs/: a session's job table (and jobs/ with it) loads with the first tool
// batch that may start a job (`SessionCore.jobTable`); a run whose model starts none never compiles it.
export const loadSessionJobs = () => import("./session-jobs.js");
