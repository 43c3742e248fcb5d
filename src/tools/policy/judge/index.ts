// The face of policy/judge/: how a call is judged (the shell reader, the deny tables, the rules'
// matchers) loads with the first tool batch; a run whose model calls no tool never compiles it.
import { onFirstUse } from "../../../config/on-first-use.js";

export const approvalJudge = onFirstUse(
  () => import("./approval-judge.js"),
  "the approval judge (loadApprovalJudge)",
);
