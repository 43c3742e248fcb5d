// Tool vocabulary shared by the registry, the executor and the engine.
import type * as z from "zod/mini";
import type { JobTable } from "../jobs/job-table.js";
import type { SandboxPolicy } from "../sandbox/policy.js";
import type { McpToolInfo } from "./mcp/mcp-names.js";
import type { ContentPart } from "../vocab/messages.js";

export type ToolOutcome = "ok" | "error" | "denied" | "not_executed" | "interrupted";

/** Exactly what a tool returned; appended to the record and sent to the model unchanged (R-TOOL-3). */
export interface ToolResult {
  outcome: ToolOutcome;
  content: ContentPart[];
  /** Set by `bash`: whether the command ran inside the OS sandbox (R-SBX-4). */
  sandboxed?: boolean;
}

/** Approval classes of R-TOOL-2. */
export type ToolKind = "read" | "edit" | "shell" | "mcp" | "fetch";

export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

/** Per-turn read-before-edit authorization (R-TOOL-1). */
export interface ReadTracker {
  /** Called after a successful line-numbered read or a write by this turn. */
  markRead(absPath: string, mtimeMs: number): void;
  /** `null` when the edit is allowed, else the error text for the model. */
  checkEditable(absPath: string, currentMtimeMs: number): string | null;
  /** A new turn starts: forget every authorization. */
  reset(): void;
}

export interface ToolContext {
  /** The workspace; relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  /** Environment of tool processes: the scrubbed one of R-CFG-3 (absent = tern's own, scrubbed with the default patterns). */
  env?: NodeJS.ProcessEnv;
  /** `null` = no timer (R-BASH-1). */
  bashTimeoutSeconds: number | null;
  readTracker: ReadTracker;
  /** Session state that outlives turns (R-TODO). */
  todos: { get(): TodoItem[]; set(items: TodoItem[]): void };
  /** The OS sandbox `bash` runs in; absent when `sandbox.mode` is off. */
  sandbox?: ShellSandbox;
  /**
   * Returns one page of the archived content of an earlier turn/round from `offset` (R-COMP-7),
   * ending with the offset of the next page; absent until compaction exists.
   */
  recall?: (turn: number, round?: number, offset?: number) => string;
  /** The session's background jobs (R-JOB-1); absent where a session has none. */
  jobs?: JobTable;
  /** The id of the call being run (set by the executor for each call). */
  callId?: string;
  /**
   * Called by a write with what it really opened (§10): the executor judges the call again on
   * these facts and asks when they need an approval the call did not get. `null` = write;
   * otherwise the text of the refusal. Absent (a tool run on its own): the write goes on.
   */
  admitWrite?: (target: WriteTarget) => Promise<string | null>;
  /** Real paths of folders grep and glob never list (TERN_HOME: reading it asks, §10). */
  hidden?: string[];
  /**
   * The read deny rule (Claude Code's `Read(…)` too, R-WF-5) that covers a file, if any: grep
   * does not search such a file, as the read tool does not read it.
   */
  readDenied?: (absPath: string) => string | undefined;
  /**
   * web_fetch: the addresses its host resolved to when the call was judged; it connects only to
   * these, never looking the name up again (a second answer could rebind it to a private one, §10).
   */
  fetchAddresses?: readonly { address: string; family: number }[];
  /** `exit_plan` (R-PLAN-1): hands the plan to the session, which answers with the tool's result. */
  exitPlan?: (plan: string) => Promise<ToolResult>;
  /** `task` (R-AGENT-1): runs a sub-agent, whose final answer (or failure) is the tool's result. */
  runTask?: (
    args: { description: string; prompt: string; agent?: string; isolation?: "worktree" },
    callId: string,
  ) => Promise<ToolResult>;
  /** A long-running call reports how far it got (MCP progress notifications). */
  progress?: (callId: string, update: ToolProgress) => void;
  /** A running call's output as it comes (bash), for a live tail (R-UI-18); absent = nobody watches. */
  output?: (callId: string, text: string) => void;
  /** The session's language servers (R-LSP); absent when there are none. */
  codeIntel?: CodeIntel;
}

/** What file tools and the `lsp` tool ask of the session's language servers (R-LSP-1..3). */
export interface CodeIntel {
  /** A call read this file (absolute): its server starts and opens it, without waiting. */
  touched(path: string): void;
  /** A call changed these files (absolute): what to append to its result ("" = nothing). */
  edited(paths: string[]): Promise<string>;
  /** The `lsp` tool; `path` absolute, positions 1-based. */
  query(
    q: { operation: string; path?: string; line?: number; character?: number; query?: string },
    signal: AbortSignal,
  ): Promise<{ ok: boolean; text: string }>;
}

/** Where a write lands, as read from the opened descriptor (so no link swap can change it afterwards). */
export interface WriteTarget {
  /** The path the call named, made absolute. */
  path: string;
  /** The real path of the opened (or about to be created) file. */
  real: string;
  /** The named path itself is a symlink. */
  symlink: boolean;
  /** Hard links of the file (1 for a new file). */
  nlink: number;
}

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** How `bash` wraps a command in the OS sandbox, and who may let it out. */
export interface ShellSandbox {
  policy: SandboxPolicy;
  /**
   * The program and arguments that run `command` inside the sandbox, what it reads on descriptor
   * 3, and the placeholder folders the command's policy names (held while it runs; `policy` then
   * is that policy).
   */
  wrap(command: readonly string[]): {
    file: string;
    args: string[];
    fd3?: Buffer;
    placeholders?: readonly string[];
  };
  /**
   * Asks the person whether a command that failed in the sandbox may run again outside it. Absent
   * where nobody can be asked (`tern run`): then it never runs outside.
   */
  approveOutside?(command: string): Promise<boolean>;
}

/**
 * How a call presents itself to a person (R-UI-11) and to an ACP client: drawn, never sent to the
 * model. Each tool says it of its own calls (`Tool.present`), so no front end switches on names.
 */
export interface CallPresentation {
  /** What the call does, in one line where it can: `npm test`, `src/a.ts:3-9`, `*.ts in src`. */
  title: string;
  kind: CallKind;
  /** The files it touches, as the model named them, with the line it starts at when it has one. */
  locations: { path: string; line?: number }[];
  /** The whole of it, for an approval and under a finished call: a command, a diff, new text. */
  preview?: CallPreview;
}

/** What kind of work a call is, in the words ACP's clients draw (`execute`, `edit`, …). */
export type CallKind = "read" | "edit" | "execute" | "search" | "fetch" | "think" | "other";

export type CallPreview =
  | { type: "command"; command: string }
  /** Text replaced: `before` becomes `after` (an exact-string edit). */
  | { type: "diff"; before: string; after: string }
  /** New text, numbered from `line`; `note` says what it replaces. */
  | { type: "text"; text: string; line: number; note?: string };

export interface Tool<Args = any> {
  name: string;
  description: string;
  schema: z.ZodMiniType<Args>;
  kind: ToolKind;
  /**
   * The JSON schema sent to the model: built-in tools get theirs from the build (converted from
   * `schema` once); MCP tools pass the server's own.
   */
  jsonSchema?: Record<string, unknown>;
  /** Workspace-relative or absolute paths the call touches: per-file ordering and approval. */
  paths(args: Args, cwd: string): string[];
  /** Set for MCP tools: approval matches rules on their other names and arguments. */
  mcp?: McpToolInfo;
  /**
   * The call as a person sees it, from its arguments as the model sent them (not yet checked
   * against the schema, so each field may be missing or of another type). Absent: `present.ts`'s
   * default (the arguments as `key=value`).
   */
  present?(args: Record<string, unknown>): CallPresentation;
  /**
   * A refusal that needs no person, known before the call runs (an edit of a file this turn has
   * not read): the executor gives it as the call's `error` result without asking for approval
   * (R-UI-19). `null`: the call may be offered. The tool still checks again when it runs.
   */
  refuseEarly?(args: Args, ctx: Pick<ToolContext, "cwd" | "readTracker">): string | null;
  /** Never throws for user-level failures: returns a result with outcome `error`. */
  run(args: Args, ctx: ToolContext): Promise<ToolResult>;
}
