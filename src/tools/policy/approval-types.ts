// What the approval policy (approval.ts) and its judge (judge/approval-judge.ts) both speak of.
import type { PermissionMode } from "../../config/types.js";
import type { McpToolInfo } from "../mcp/mcp-names.js";
import type { ToolKind, WriteTarget } from "../types.js";

export type ApprovalDecision = "allow" | "deny" | "ask";

export interface ApprovalCall {
  name: string;
  args: unknown;
  kind: ToolKind;
  /** As the tool reported them (workspace-relative or absolute). */
  paths: string[];
  /** Set for MCP tools: rules match their other names and their arguments (mcp-names.ts). */
  mcp?: McpToolInfo;
  /** For a write, per path: what the tool really opened (§10), judged instead of the path as it is now. */
  opened?: WriteTarget[];
  /** For web_fetch: the loopback/link-local/private address its host resolves to (§10). */
  privateAddress?: string;
}

export interface ApprovalVerdict {
  decision: ApprovalDecision;
  /** The deny rule that matched, for the result text. */
  rule?: string;
  /** Why the call asks although a rule or mode would allow it. */
  reason?: string;
  /** The result text of a call denied by the mode rather than a rule (plan mode, R-PLAN-1). */
  message?: string;
}

export interface ApprovalPolicyOptions {
  mode: PermissionMode;
  allow: string[];
  deny: string[];
  /** R-WF-5: rules whose calls ask whatever the mode (Claude Code's `permissions.ask`). */
  ask?: string[];
  cwd: string;
  /** The shell runs inside an OS sandbox (R-SBX-3): it needs no asking; deny rules still apply. */
  sandboxedShell?: boolean;
  /** tern's own folder: reads and writes of it ask in every mode but yolo (§10). */
  ternHome?: string;
  /** Plan mode (R-PLAN-1): whether bash can run in the read-only sandbox here (probed when first asked). */
  planSandbox?: () => boolean;
}

/** What a policy knows and has granted, as the judge reads (and, for grants, extends) it. */
export interface PolicyState {
  mode: PermissionMode;
  yoloOnce: boolean;
  /** The configured rules, plus a custom command's `allowed-tools` while its turn runs. */
  allow: string[];
  readonly deny: string[];
  readonly ask?: string[];
  readonly cwd: string;
  readonly realCwd: string;
  readonly sandboxedShell: boolean;
  readonly realTernHome?: string;
  readonly planSandbox: () => boolean;
  readonly toolGrants: Set<string>;
  readonly pathGrants: Set<string>;
  readonly bashGrants: Set<string>;
}
