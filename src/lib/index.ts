// The library API (`import { openSession } from "tern"`): the same `Session` door the terminal
// front ends and `tern acp` use — commands in (`send`, `cancel`, `askSide`), events out
// (`subscribe`), read-only queries (`status`, `transcript`, `todos`). Nothing here reaches behind it.
import { type OpenOptions, type OpenResult, openConfiguredSession } from "../engine/open.js";
import type { Session } from "../engine/session.js";

export type { OpenOptions } from "../engine/open.js";
// The door's words, every one (engine/door/): commands and their results, events, the requests
// made of a person with their answers, a turn's outcome, side questions, and the opening errors.
export * from "../engine/door/errors.js";
export type * from "../engine/door/commands.js";
export type * from "../engine/door/events.js";
export type * from "../engine/door/requests.js";
export type * from "../engine/door/outcome.js";
export type * from "../engine/door/side.js";
export type * from "../engine/door/session-door.js";
export type { Session } from "../engine/session.js";
export type { PendingCall, ApprovalAnswer } from "../tools/executor.js";
export type { ContentPart, Message, ToolCall } from "../vocab/messages.js";
export type { Usage } from "../vocab/usage.js";
export type { TodoItem } from "../tools/types.js";
export type { Config, PermissionMode, ResolvedModel } from "../config/types.js";
export type { RecordLine, StopReason } from "../record/types.js";
export { exitCodeFor } from "../commands/exit-codes.js";

export interface OpenedTernSession {
  session: Session;
  /** True when `resume` named an earlier session. */
  resumed: boolean;
  /** Notices about the config, the model or the record (one line each). */
  warnings: string[];
  model: OpenResult["model"];
}

/**
 * Opens a new tern session (or resumes one) in `opts.cwd`, with the user's config. Close it with
 * `session.close()`. Example: `const { session } = await openSession({ cwd });
 * const outcome = await session.send({ type: "prompt", content: [{ type: "text", text: "hi" }] });`
 */
export async function openSession(opts: OpenOptions = {}): Promise<OpenedTernSession> {
  const opened = await openConfiguredSession(opts);
  // The model as status() shows it: a program gets no key back (SPEC §10).
  const model = opened.session.status().model;
  return { session: opened.session, resumed: opened.resumed, warnings: opened.warnings, model };
}
