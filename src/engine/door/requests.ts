// The requests the engine makes of a person, declared in one place: whoever opens a `Session`
// (the TUI, the line mode, ACP, a library caller; later a hook or a sub-agent's parent) supplies
// these answers, and every request of the session — its own turns' and, later, a sub-agent's —
// reaches the person through them. What each gets, must return, and what happens when it throws
// or the turn is cancelled is written on each member below; the engine keeps to it.
import type { ApprovalAnswer, PendingCall } from "../../tools/executor.js";
import type { ElicitAnswer, ElicitForm } from "../../vocab/elicit-form.js";

export type { ApprovalAnswer, PendingCall } from "../../tools/executor.js";

/** A per-turn budget limit (R-BUD). */
export type LimitName = "model_calls" | "tool_calls" | "duration" | "cost";

/** What a front end answers when a limit is reached: `yes` grants one more allowance, `all` = yyy. */
export type LimitAnswer = "yes" | "no" | "all";
export type OnLimit = (limit: LimitName, used: number, allowed: number) => Promise<LimitAnswer>;

export interface PersonRequests {
  /**
   * Approve a batch (R-TOOL-2): called at most once per tool batch, with every call whose policy
   * decision is "ask", before any call of the batch runs. Return a decision per call id:
   * `approved`, `denied`, or `always` (approved, and what `PendingCall.always` names is granted for
   * the rest of the session). A call missing from the map is denied. A throw or a rejection
   * denies the whole batch; the turn goes on with those denials as results.
   *
   * Leaving the sandbox (R-SBX-3) is asked through here too, only when `offersOutsideSandbox`:
   * one `bash` call whose id starts `outside-sandbox-`, whose `reason` says it failed inside the
   * sandbox; `approved` or `always` runs that one command again outside it, nothing more.
   *
   * An `@path` attachment that leads outside the workspace (§10) is asked through here too,
   * before its prompt is recorded: one `read_file` call whose id starts `attach-`, whose `reason`
   * names the real target; `approved` or `always` attaches it to that prompt, nothing more.
   *
   * Cancelling the turn does not withdraw a pending request: the engine waits for the answer
   * (the front end that cancels answers `denied` first, as Ctrl+C does) and runs nothing after
   * the abort, whatever the answer said.
   */
  approve(calls: PendingCall[]): Promise<Map<string, ApprovalAnswer>>;
  /**
   * A budget limit was reached (R-BUD-3): `limit` and how much of it `used` of `allowed`. Return
   * `yes` (one more allowance), `all` (yes to every limit for the rest of this turn and its
   * `/retry`) or `no` (the turn stops with that limit's stop reason). Absent: always `no` (`tern
   * run`). A throw or a rejection counts as `no`. A cancel while it is pending waits for the
   * answer, then the turn stops `cancelled`.
   */
  onLimit?: (limit: LimitName, used: number, allowed: number) => Promise<LimitAnswer>;
  /** The result text of a call answered `denied` (default `denied by user`). */
  denialMessage?: string;
  /** A person answers `approve`, so a command that failed in the sandbox may be offered outside it. */
  offersOutsideSandbox?: boolean;
  /**
   * R-PLAN-1: the model called `exit_plan` in plan mode. Show `plan` (markdown) to the person and
   * resolve with their pick: `implement` switches the permission mode to `mode` and makes the
   * plan the todo list, and the turn goes on implementing; `keep_planning` returns `note` to the
   * model, still planning. Rejecting or `signal` aborting counts as keep planning. Absent where
   * nobody can be asked (`tern run`, ACP): the plan is then the turn's answer and the turn ends.
   */
  reviewPlan?: (plan: string, signal: AbortSignal) => Promise<PlanReview>;
  /**
   * R-MCP-3: an MCP server asks the person a question mid-call (`elicitation/create`) as a form of
   * typed fields. Resolve with `accept` and the values (typed as the fields say: check each with
   * `fieldValue`), `decline`, or `cancel`. A throw, or `signal` aborting, counts as `cancel`. Absent
   * where nobody can answer (`tern run`): the form is declined and the person told in a notice.
   */
  elicit?: (form: ElicitForm, signal: AbortSignal) => Promise<ElicitAnswer>;
}

/** What the person picked for a plan (`reviewPlan`). */
export type PlanReview =
  | { choice: "implement"; mode: "auto-edit" | "ask" }
  | { choice: "keep_planning"; note?: string };

/** The name the session opener and front ends have used for these answers. */
export type SessionHooks = PersonRequests;
