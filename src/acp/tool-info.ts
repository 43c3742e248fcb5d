// How a tern tool call looks to an ACP client, from the call's own presentation (its tool's
// title, kind, files and preview; engine `tool_call` events and `PendingCall`): a one-line title,
// ACP's kind, absolute locations, and for edits the file's text before and after as diff content.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { redactSecrets } from "../config/secrets.js";
import type { CallPresentation } from "../engine/door/events.js";
import { argumentsObject } from "../vocab/messages.js";

/** A call's arguments as ACP's `rawInput` (an object; `{}` when they are not one). */
export function parseArgs(raw: string): Record<string, unknown> {
  return argumentsObject(raw) ?? {};
}

/** The title a client shows: one line, the tool's name before it unless it is a command. */
export function toolTitle(name: string, shown: CallPresentation): string {
  const oneLine = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s).replace(/\s+/g, " ").trim();
  if (shown.kind === "execute") return oneLine(shown.title) || name;
  return shown.title ? `${name} ${oneLine(shown.title)}` : name;
}

export function toolLocations(shown: CallPresentation, cwd: string): acp.ToolCallLocation[] {
  return shown.locations.map((l) => {
    const path = isAbsolute(l.path) ? l.path : resolve(cwd, l.path);
    return l.line !== undefined ? { path, line: l.line } : { path };
  });
}

/** The file an edit changes (absolute), whose text before and after becomes a diff. */
export function editedPath(shown: CallPresentation, cwd: string): string | undefined {
  return shown.kind === "edit" ? toolLocations(shown, cwd)[0]?.path : undefined;
}

/** The file's text now, or null when it does not exist (a new file's diff starts from nothing). */
/** Files larger than this are not sent as diff text (a client renders every byte). */
export const MAX_DIFF_BYTES = 1024 * 1024;

/**
 * A file's text for a diff: null when there is no file, undefined when it is not shown (a FIFO,
 * device or folder, which a read would block on or fail, or a file over MAX_DIFF_BYTES). Key
 * values in it are redacted: the client is never sent a key.
 */
export function readText(path: string): string | null | undefined {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return undefined;
    size = st.size;
  } catch {
    return null;
  }
  if (size > MAX_DIFF_BYTES) return undefined;
  try {
    return redactSecrets(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}
