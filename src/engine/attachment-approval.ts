// `@path` attachments that lead outside the workspace (§10, R-WF-4): the front end read them but
// held them back (TextPart.outside); here, before the prompt is recorded or sent, each asks the
// person through the door's `approve` — one `read_file` call whose id starts `attach-` and whose
// reason names the real target — unless the mode is yolo (attached) or a deny rule refuses it.
// `tern run` without --yes therefore refuses, with a one-line notice naming the target. TERN_HOME
// and `.git` internals never attach. A refused part keeps only its one-line placeholder.
import type { ApprovalAnswer, PendingCall } from "../tools/batch-types.js";
import { loadApprovalJudge } from "../tools/policy/approval.js";
import type { ContentPart, TextPart } from "../vocab/messages.js";
import type { SessionCore } from "./core.js";

type Outside = NonNullable<TextPart["outside"]>;

function pendingAttach(id: string, outside: Outside): PendingCall {
  const args = { path: outside.real };
  const argumentsText = JSON.stringify(args);
  return {
    call: { id, name: "read_file", arguments: argumentsText },
    id,
    name: "read_file",
    arguments: argumentsText,
    args,
    kind: "read",
    paths: [outside.real],
    reason: `attaches @${outside.shown}, which leads outside the workspace: ${outside.real}`,
    // An attachment is this prompt's: "always" grants nothing beyond it.
    always: `this attachment only (@${outside.shown})`,
    presentation: { title: `attach ${outside.real}`, kind: "read", locations: [{ path: outside.real }] },
  };
}

/** The content with every held attachment settled: attached when approved, else its placeholder. */
export async function settleOutsideAttachments(
  core: SessionCore,
  content: ContentPart[],
): Promise<ContentPart[]> {
  if (!content.some((p) => p.type === "text" && p.outside)) return content;
  await loadApprovalJudge();
  const yolo = core.policy.getMode() === "yolo";
  const answers = new Map<number, boolean>();
  const pending: PendingCall[] = [];
  content.forEach((part, i) => {
    if (part.type !== "text" || !part.outside) return;
    const { outside } = part;
    if (outside.never !== undefined) {
      core.publish({
        type: "notice",
        text: `@${outside.shown} not attached: ${outside.never} (${outside.real})`,
      });
      answers.set(i, false);
      return;
    }
    const call = pendingAttach(`attach-${i + 1}`, outside);
    const verdict = core.policy.evaluate({
      name: "read_file",
      args: call.args,
      kind: "read",
      paths: call.paths,
    });
    if (verdict.decision === "deny") answers.set(i, false);
    else if (yolo) answers.set(i, true);
    else pending.push(call);
  });
  if (pending.length > 0) {
    let given: Map<string, ApprovalAnswer>;
    try {
      given = await core.hooks.approve(pending);
    } catch {
      given = new Map();
    }
    for (const call of pending) {
      const answer = given.get(call.id);
      answers.set(Number(call.id.slice("attach-".length)) - 1, answer === "approved" || answer === "always");
    }
  }
  return content.map((part, i) => {
    if (part.type !== "text" || !part.outside) return part;
    const { outside, ...rest } = part;
    if (answers.get(i) && outside.held !== undefined) return { ...rest, text: outside.held };
    if (outside.never === undefined)
      core.publish({
        type: "notice",
        text: `@${outside.shown} not attached: it leads outside the workspace, to ${outside.real}, and was not approved`,
      });
    return rest;
  });
}
