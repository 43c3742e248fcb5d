// `!`cmd`` in a custom command's body (Claude Code's bash execution in slash commands, R-WF-2):
// each command runs before the prompt is sent and its output replaces it in the prompt. Each is
// a `bash` call judged like any other: the command's `allowed-tools` allow it (as they allow the
// turn's calls), a deny rule refuses it, anything else asks the person (`tern run`: denied
// without --yes); a refused or failed command's result text is what the prompt carries, so the
// model sees why. Hooks do not run for them (the person wrote them into the file).
import type { ContentPart } from "../vocab/messages.js";
import type { ToolCall } from "../vocab/messages.js";
import type { SessionCore } from "./core.js";
import { contentToText } from "./event-fields.js";
import { sessionToolContext } from "./turn/tool-batch.js";

const SHELL_SPAN = /!`([^`\n]+)`/g;

/**
 * The prompt with each `!`cmd`` of its own text (the first part) replaced by what the command
 * printed. Attached files (`@path` blocks after it) are never scanned: their text is not the
 * command's author's.
 */
export async function expandCommandShell(
  core: SessionCore,
  content: ContentPart[],
  allow: readonly string[],
  signal: AbortSignal,
): Promise<ContentPart[]> {
  const [own, ...attached] = content;
  if (own?.type !== "text") return content;
  const commands = [...own.text.matchAll(SHELL_SPAN)].map((m) => m[1]);
  if (commands.length === 0) return content;
  const calls: ToolCall[] = commands.map((command, i) => ({
    id: `command-shell-${i + 1}`,
    name: "bash",
    arguments: JSON.stringify({ command }),
  }));
  core.policy.setTurnAllow(allow);
  let outputs: string[];
  try {
    const results = await core.executor.runBatch(calls, sessionToolContext(core, signal), {
      approve: (pending) => core.hooks.approve(pending),
      denialMessage: core.hooks.denialMessage,
      onStart: () => {},
      onResult: () => {},
    });
    outputs = results.map((r) => contentToText(r.content).trimEnd());
  } finally {
    core.policy.setTurnAllow([]);
  }
  let next = 0;
  return [{ ...own, text: own.text.replace(SHELL_SPAN, () => outputs[next++] ?? "") }, ...attached];
}
