// Every approval tern would ask a person for becomes a `session/request_permission` to the
// client, one per call: allow once, allow always (named with tern's grant scope: the tool for
// these files, the host for web_fetch, or the tool itself) or reject. A cancelled request or an
// unanswerable one is a rejection, as an unanswered prompt is in the terminal; after a cancelled
// one the rest of the batch is not asked about.
import type * as acp from "@agentclientprotocol/sdk";
import { redactDeep } from "../config/secrets.js";
import type { SessionHooks } from "../engine/door/requests.js";
import { parseArgs, toolLocations, toolTitle } from "./tool-info.js";

type PendingCalls = Parameters<SessionHooks["approve"]>[0];
type Decisions = Awaited<ReturnType<SessionHooks["approve"]>>;

export const ALLOW_ONCE = "allow_once";
export const ALLOW_ALWAYS = "allow_always";
export const REJECT_ONCE = "reject_once";

/** What "always" grants for this call, in tern's words (the policy's own description when given). */
export function grantScope(call: PendingCalls[number]): string {
  if (call.always) return call.always;
  if (call.kind === "fetch") {
    try {
      const url = String((call.args as { url?: unknown } | undefined)?.url ?? "");
      return `${call.name} on ${new URL(url).host} for this session`;
    } catch {
      return `${call.name} for this session`;
    }
  }
  if (call.paths.length > 0) return `${call.name} on ${call.paths.join(", ")} for this session`;
  return `every ${call.name} call for this session`;
}

export function permissionOptions(call: PendingCalls[number]): acp.PermissionOption[] {
  return [
    { optionId: ALLOW_ONCE, name: "Allow once", kind: "allow_once" },
    { optionId: ALLOW_ALWAYS, name: `Allow always: ${grantScope(call)}`, kind: "allow_always" },
    { optionId: REJECT_ONCE, name: "Reject", kind: "reject_once" },
  ];
}

export type AskPermission = (request: acp.RequestPermissionRequest) => Promise<acp.RequestPermissionResponse>;

export function acpApprover(
  sessionId: () => string,
  cwd: string,
  ask: AskPermission,
): SessionHooks["approve"] {
  return async (calls) => {
    const decisions: Decisions = new Map();
    // A cancelled answer means the client cancelled the turn: the calls after it are not asked
    // about (they are denied), so no question outlives the session/cancel.
    let cancelled = false;
    for (const call of calls) {
      if (cancelled) {
        decisions.set(call.id, "denied");
        continue;
      }
      const args = parseArgs(call.arguments);
      let answer: acp.RequestPermissionResponse | undefined;
      try {
        // Built from the call itself, not from events: redacted here, the client never gets a key.
        answer = await ask(
          redactDeep({
            sessionId: sessionId(),
            toolCall: {
              toolCallId: call.id,
              title: toolTitle(call.name, call.presentation),
              kind: call.presentation.kind,
              status: "pending",
              locations: toolLocations(call.presentation, cwd),
              rawInput: args,
              ...(call.reason
                ? { content: [{ type: "content", content: { type: "text", text: call.reason } }] }
                : {}),
            },
            options: permissionOptions(call),
          }),
        );
      } catch {
        answer = undefined;
      }
      const outcome = answer?.outcome;
      if (outcome?.outcome === "cancelled") cancelled = true;
      const chosen = outcome?.outcome === "selected" ? outcome.optionId : undefined;
      decisions.set(
        call.id,
        chosen === ALLOW_ALWAYS ? "always" : chosen === ALLOW_ONCE ? "approved" : "denied",
      );
    }
    return decisions;
  };
}
