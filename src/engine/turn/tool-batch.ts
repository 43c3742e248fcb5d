// One round's tool batch: publish the calls, let the executor decide approval once for the batch
// and run it, and commit `tool_start` / `tool_result` as each happens (R-REC-4).
import { readDeniedBy } from "../../config/attach-deny.js";
import type { ToolProgress, ToolResult } from "../../tools/types.js";
import { contentToText } from "../event-fields.js";
import type { SessionCore } from "../core.js";
import { exitPlan } from "../plan-review.js";
import { ToolOutputStream } from "./tool-output.js";
import { estimateTokens, recallPageChars } from "../compaction/compaction-estimate.js";
import { recallPage } from "../compaction/recall.js";
import type { ToolCall } from "../../vocab/messages.js";

/** What every call a session runs is given: its folder, sandbox, environment and state. */
export function sessionToolContext(core: SessionCore, signal: AbortSignal) {
  const deny = core.settings.permissions.deny;
  return {
    // R-WF-5: grep leaves out what a read deny rule covers (only looked up when there is one).
    ...(deny.some((r) => r.startsWith("read_file(") || r === "read_file")
      ? { readDenied: (abs: string) => readDeniedBy(deny, abs, core.cwd) }
      : {}),
    cwd: core.cwd,
    // Planning: bash only inside the read-only sandbox (the policy asks where there is none).
    sandbox: core.policy.getMode() === "plan" ? core.planSandbox?.() : core.sandbox,
    signal,
    env: core.toolEnv,
    bashTimeoutSeconds: core.settings.bashTimeoutSeconds,
    readTracker: core.readTracker,
    todos: core.todos,
    codeIntel: core.languageServers,
  };
}

export async function runToolBatch(
  core: SessionCore,
  turn: number,
  calls: ToolCall[],
  signal: AbortSignal,
): Promise<ToolResult[]> {
  // The tools' code presents their calls; the batch below would load it first anyway.
  await core.executor.ready();
  for (const call of calls)
    core.publish({
      type: "tool_call",
      id: call.id,
      name: call.name,
      arguments: call.arguments,
      presentation: core.executor.present(call),
    });
  const output = new ToolOutputStream((event) => core.publish(event));
  const progress = (id: string, update: ToolProgress) =>
    core.publish({
      type: "tool_progress",
      id,
      name: calls.find((c) => c.id === id)?.name ?? "",
      progress: update.progress,
      ...(update.total !== undefined ? { total: update.total } : {}),
      ...(update.message !== undefined ? { message: update.message } : {}),
    });
  // Pages recalled in this batch count against the room of later ones (results may not be committed yet).
  let recalled = 0;
  const ctx = {
    ...sessionToolContext(core, signal),
    exitPlan: (plan: string) => exitPlan(core, plan, signal),
    // A child's work shows as its task call's progress (R-AGENT-1): its tool calls so far, the newest.
    runTask: core.tasks
      ? (
          args: { description: string; prompt: string; agent?: string; isolation?: "worktree" },
          callId: string,
        ) => core.tasks!.run({ args, callId, turn, signal, progress: (update) => progress(callId, update) })
      : undefined,
    jobs: await core.jobTable(),
    recall: (turn: number, round?: number, offset?: number) => {
      const page = recallPage(core.fold, { turn, round, offset }, recallPageChars(core, recalled));
      recalled += estimateTokens(page, "", []);
      return page;
    },
    progress,
    output: (id: string, text: string) => output.push(id, calls.find((c) => c.id === id)?.name ?? "", text),
  };
  const points = core.hookPoints;
  // The executor keeps a hook's throw from losing the other results; a commit the disk refused
  // must still stop the turn, so the first one is thrown once the batch is over.
  let refused: unknown;
  const commit = (write: () => void) => {
    try {
      if (refused === undefined) write();
    } catch (err) {
      refused = err;
    }
  };
  const results = await core.executor.runBatch(calls, ctx, {
    approve: (pending) => {
      points?.notify(
        `tern needs your permission to use ${[...new Set(pending.map((p) => p.name))].join(", ")}`,
        "permission_prompt",
      );
      return core.hooks.approve(pending);
    },
    ...(points && {
      beforeCall: (call, args) => points.beforeTool(call.id, call.name, args, signal),
      afterCall: (call, args, result) => points.afterTool(call.id, call.name, args, result, signal),
    }),
    denialMessage: core.hooks.denialMessage,
    onDecision: (id, decision) => core.publish({ type: "approval", id, decision }),
    beforeRun: core.checkpoints?.beforeRun,
    onStart: (call) => commit(() => core.records.toolStart(turn, call.id, call.name)),
    onResult: (call, result) => {
      output.end(call.id);
      commit(() => core.records.toolResult(turn, call.id, call.name, result));
      core.publish({
        type: "tool_result",
        id: call.id,
        name: call.name,
        outcome: result.outcome,
        content: contentToText(result.content),
      });
    },
  });
  output.close();
  if (refused !== undefined) throw refused;
  return results;
}
