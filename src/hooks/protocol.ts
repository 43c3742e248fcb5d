// What a hook's run means (R-HOOK-2), read as Claude Code reads it: exit 0 is success (JSON on
// stdout may say more; plain stdout of UserPromptSubmit and SessionStart is context), exit 2
// blocks with stderr as the reason (stdout ignored), any other exit is a non-blocking error.
import type { HookEvent } from "./events.js";

export interface HookProcessResult {
  exit: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export type PermissionDecision = "allow" | "deny" | "ask";

/** One run's meaning. `label` is what the record and `--json` say it decided. */
export interface HookVerdict {
  label: "none" | "block" | "allow" | "deny" | "ask" | "stop" | "error";
  /** Exit 2, `decision: "block"`, or a PreToolUse deny: why. */
  block?: string;
  permission?: PermissionDecision;
  reason?: string;
  updatedInput?: Record<string, unknown>;
  /** Text for the model: `additionalContext`, or plain stdout of UserPromptSubmit / SessionStart. */
  context?: string;
  /** `continue: false`: the turn stops, with this shown to the person. */
  stop?: string;
  /** A non-blocking error, or `systemMessage`: shown to the person only. */
  message?: string;
}

const CONTEXT_FROM_STDOUT: ReadonlySet<HookEvent> = new Set(["UserPromptSubmit", "SessionStart"]);

export function interpret(event: HookEvent, run: HookProcessResult, timeoutSeconds: number): HookVerdict {
  if (run.timedOut)
    return { label: "error", message: `timed out after ${timeoutSeconds}s (its process group was killed)` };
  if (run.exit === 2) return { label: "block", block: run.stderr.trim() || "blocked by a hook (exit 2)" };
  if (run.exit !== 0) {
    const why = run.stderr.trim() || "no stderr output";
    return {
      label: "error",
      message: `failed with ${run.exit === null ? "a signal" : `exit ${run.exit}`}: ${why}`,
    };
  }
  const out = run.stdout.trim();
  const json = out.startsWith("{") ? parseObject(out) : undefined;
  if (!json)
    return CONTEXT_FROM_STDOUT.has(event) && out ? { label: "none", context: out } : { label: "none" };
  return fromJson(event, json);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function fromJson(event: HookEvent, json: Record<string, unknown>): HookVerdict {
  const verdict: HookVerdict = { label: "none" };
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  // `suppressOutput` hides stdout from the transcript: tern never shows a hook's stdout there.
  if (str(json.systemMessage)) verdict.message = str(json.systemMessage);
  const specific =
    typeof json.hookSpecificOutput === "object" && json.hookSpecificOutput !== null
      ? (json.hookSpecificOutput as Record<string, unknown>)
      : {};
  if (str(specific.additionalContext)) verdict.context = str(specific.additionalContext);
  const reason = str(json.reason);
  // `approve` / `block` are the older PreToolUse spelling of allow / deny.
  if (json.decision === "block") {
    verdict.label = event === "PreToolUse" ? "deny" : "block";
    verdict.block = reason ?? "blocked by a hook";
    if (event === "PreToolUse") verdict.permission = "deny";
  } else if (json.decision === "approve" && event === "PreToolUse") {
    verdict.label = "allow";
    verdict.permission = "allow";
    verdict.reason = reason;
  }
  const permission = specific.permissionDecision;
  if (event === "PreToolUse" && (permission === "allow" || permission === "deny" || permission === "ask")) {
    verdict.permission = permission;
    verdict.label = permission;
    verdict.reason = str(specific.permissionDecisionReason) ?? verdict.reason;
    if (permission === "deny") verdict.block = verdict.reason ?? "denied by a hook";
  }
  if (event === "PreToolUse" && typeof specific.updatedInput === "object" && specific.updatedInput !== null)
    verdict.updatedInput = specific.updatedInput as Record<string, unknown>;
  if (json.continue === false) {
    verdict.label = "stop";
    verdict.stop = str(json.stopReason) ?? "stopped by a hook";
  }
  return verdict;
}

/** What all the hooks of one event said together. */
export interface HookOutcome {
  /** PreToolUse: deny beats ask beats allow. */
  permission?: PermissionDecision;
  /** Why it was blocked or denied (every blocking hook's reason). */
  block?: string;
  reason?: string;
  updatedInput?: Record<string, unknown>;
  context: string[];
  stop?: string;
  messages: string[];
}

export function combine(verdicts: readonly HookVerdict[]): HookOutcome {
  const outcome: HookOutcome = { context: [], messages: [] };
  const blocks = verdicts.flatMap((v) => (v.block !== undefined ? [v.block] : []));
  if (blocks.length > 0) outcome.block = blocks.join("\n");
  // A block (exit 2) denies whatever another hook allowed or asked.
  if (outcome.block !== undefined) outcome.permission = "deny";
  else
    for (const rank of ["deny", "ask", "allow"] as const) {
      const first = verdicts.find((v) => v.permission === rank);
      if (first) {
        outcome.permission = rank;
        outcome.reason = first.reason;
        break;
      }
    }
  for (const v of verdicts) {
    if (v.updatedInput) outcome.updatedInput = v.updatedInput;
    if (v.context) outcome.context.push(v.context);
    if (v.stop !== undefined) outcome.stop ??= v.stop;
    if (v.message) outcome.messages.push(v.message);
  }
  return outcome;
}
