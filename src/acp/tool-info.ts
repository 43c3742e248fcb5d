// How a tern tool call looks to an ACP client: its kind (bash → execute, edits → edit, reads →
// read…), a one-line title, the files it touches (locations), and for edits the file's text
// before and after as diff content.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { redactSecrets } from "../config/secrets.js";

const KINDS: Record<string, acp.ToolKind> = {
  bash: "execute",
  edit_file: "edit",
  edit_lineno: "edit",
  write_file: "edit",
  read_file: "read",
  recall: "read",
  grep: "search",
  glob: "search",
  web_fetch: "fetch",
  todo_write: "think",
};

const EDITS = new Set(["edit_file", "edit_lineno", "write_file"]);

export function toolKind(name: string): acp.ToolKind {
  return KINDS[name] ?? "other";
}

export function parseArgs(raw: string): Record<string, unknown> {
  try {
    const value = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** Absolute path of the file a call names, if it names one. */
export function callPath(args: Record<string, unknown>, cwd: string): string | undefined {
  const path = str(args.path) ?? str(args.file_path);
  if (!path) return undefined;
  return isAbsolute(path) ? path : resolve(cwd, path);
}

export function toolTitle(name: string, args: Record<string, unknown>): string {
  const oneLine = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s).replace(/\s+/g, " ");
  switch (name) {
    case "bash":
      return str(args.command) ? oneLine(str(args.command)!) : "bash";
    case "grep":
    case "glob":
      return `${name} ${str(args.pattern) ?? ""}${str(args.path) ? ` in ${args.path}` : ""}`.trim();
    case "web_fetch":
      return `fetch ${str(args.url) ?? ""}`.trim();
    default: {
      const path = str(args.path);
      return path ? `${name} ${path}` : name;
    }
  }
}

export function toolLocations(args: Record<string, unknown>, cwd: string): acp.ToolCallLocation[] {
  const path = callPath(args, cwd);
  if (!path) return [];
  const line =
    typeof args.offset === "number"
      ? args.offset
      : typeof args.start_line === "number"
        ? args.start_line
        : undefined;
  return [line !== undefined ? { path, line } : { path }];
}

export function isEdit(name: string): boolean {
  return EDITS.has(name);
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
