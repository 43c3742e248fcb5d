// The merged configuration after validation (SPEC §2). Names are camelCase; every key has a default.
import type { Pricing } from "../vocab/cost.js";
import type { PluginRoot } from "./plugins.js";
import type { HostedTool, ThinkingLevel } from "../vocab/levels.js";
import type { EndpointAuth, WireApi } from "../vocab/messages.js";
import type { EditToolChoice } from "./edit-tool.js";

/** A provider's `api` key: one of the wire protocols. */
export type ProviderApi = WireApi;

export interface ProviderConfig {
  api: ProviderApi;
  baseUrl: string;
  /** Name of the environment variable holding the key; absent for local providers. */
  apiKeyEnv?: string;
  headers: Record<string, string>;
}

/** Wire quirks of one model's server (R-PROV-1, R-PROV-3); see provider `ProviderCompat`. */
export interface ModelCompat {
  echoReasoning?: boolean;
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

export interface ModelInfo {
  contextWindow: number;
  maxOutputTokens: number;
  images: boolean;
  /** Absent = unknown price: cost is unknown, never 0. */
  pricing?: Pricing;
  /** A reasoning model: thinking defaults to medium, and chat sends `reasoning_effort` (R-PROV-10). */
  reasoning?: boolean;
  /** The wire protocol for this model, over its provider's (R-PROV-9). */
  api?: ProviderApi;
  /** The reasoning level; absent = medium for reasoning models, off otherwise. */
  thinking?: ThinkingLevel;
  /** Provider-run tools switched on for this model (R-PROV-11). */
  hostedTools?: HostedTool[];
  /** Whether the wire enforces `--output-schema` itself; absent = by protocol (R-AUTO-1). */
  structuredOutput?: boolean;
  /**
   * The file-editing tool the model is trained on (R-EDIT-1, R-PROV-16): `apply_patch` for OpenAI's
   * GPT-5 and codex models (Codex's patch format); absent = config/edit-tool.ts's default rule.
   */
  editTool?: EditToolChoice;
}

export interface RetryConfig {
  maxRetries: number;
  baseDelaySeconds: number;
  factor: number;
  jitter: number;
  maxDelaySeconds: number;
}

/** `null` on a field = that limit removed (R-BUD-1). */
export interface ExecutionBudget {
  maximumModelCalls: number | null;
  maximumToolCalls: number | null;
  maximumDurationSeconds: number | null;
  /** R-PROV-17: USD the ledger may bill for one turn before the next request; absent or `null` = no cap. */
  maximumCostUsd?: number | null;
}

/** An MCP server (R-EXT): stdio when `command` is set, Streamable HTTP when `url` is. */
export interface ToolSetConfig {
  name: string;
  command?: string;
  args: string[];
  /** Values may name `${VAR}` from tern's environment. */
  env: Record<string, string>;
  url?: string;
  /** HTTP only; values may name `${VAR}` like env. */
  headers?: Record<string, string>;
  timeoutSeconds: number;
  /** How long the first request waits for this server to start (default 30). */
  startTimeoutSeconds?: number;
  /** A project server (R-WF-3): the `.mcp.json` it came from. */
  fromFile?: string;
  /** HTTP only (R-MCP-1): a pre-registered OAuth client, the loopback port, the scope to ask for. */
  oauth?: { clientId?: string; clientSecret?: string; callbackPort?: number; scope?: string };
}

/** `plan` (R-PLAN-1): read-only tools only, bash in the read-only sandbox, until `exit_plan`. */
export type PermissionMode = "ask" | "auto-edit" | "yolo" | "plan";

export interface PermissionsConfig {
  mode: PermissionMode;
  allow: string[];
  deny: string[];
  /** R-WF-5: Claude Code's `ask` rules: a call they match asks whatever the mode (deny still wins). */
  ask?: string[];
}

export interface Config {
  model?: string;
  /** `--thinking` / `/thinking`: the level for whichever model runs, over `models.<id>.thinking`. */
  thinking?: ThinkingLevel;
  providers: Record<string, ProviderConfig>;
  models: Record<string, Partial<ModelInfo> & { compat?: ModelCompat }>;
  retry: RetryConfig;
  streamIdleTimeoutSeconds: number;
  executionBudget: ExecutionBudget;
  /** `null` = no timer. */
  bashTimeoutSeconds: number | null;
  toolSets: ToolSetConfig[];
  autoCompactThreshold: number;
  maxTruncationContinues: number;
  /** Seconds idle after an answer before Notification hooks hear `idle_prompt` (Claude Code: 60). */
  idleNotificationSeconds: number;
  trustedWorkspaces: string[];
  parallelTools: boolean;
  /** R-WF-5: read Claude Code's files (`claude`) and other agents' files (`agents`); tern's own always. */
  compat: { claude: boolean; agents: boolean };
  /** Sub-agents (R-AGENT-1): how many children of one batch run at once, and each child's budget. */
  agents: AgentsConfig;
  /** Background-job logs: bytes kept per job and per session, newest part (§10 amended 2026-12-07). */
  jobs: { logMaxBytes: number; sessionLogMaxBytes: number };
  /** Characters per tool result before the middle is elided (R-TOOL-6). */
  toolOutputLimit: number;
  /** More MCP tools than this are offered through `search_mcp_tools` (a first request kept small); 0: always all. */
  mcpToolSearchThreshold: number;
  /** Name patterns (`*` wildcards) added to / taken from the scrubbed tool environment (R-CFG-3). */
  shellEnv: { exclude: string[]; include: string[] };
  permissions: PermissionsConfig;
  /** File snapshots for `tern undo` (R-CKPT-1). */
  checkpoints: CheckpointsConfig;
  /** The OS sandbox around `bash` (R-SBX-1). */
  sandbox: SandboxConfig;
  /** The user's programs at fixed points of the loop, in Claude Code's shape (R-HOOK-1). */
  hooks?: Record<string, HookGroupConfig[]>;
  /** R-WF-6: Claude Code plugin folders to load (config `plugins`). */
  plugins?: string[];
  /** R-WF-6: the plugins found (flags, config, Claude Code's installed ones), set when the config loads. */
  pluginRoots?: PluginRoot[];
  /** R-HOOK-2 (amended): the tool names this config's own hooks see; Claude Code's unless "tern". */
  hookToolNames?: "claude" | "tern";
  /** OpenTelemetry export (R-AUTO-3); absent = off unless TERN_ENABLE_TELEMETRY=1. */
  telemetry?: TelemetryConfig;
  /** A command whose first output line replaces the status line, in Claude Code's shape (R-UI-23). */
  statusLine?: StatusLineConfig;
  /** Language servers (R-LSP-1): `false` = none; absent = the built-in ones with their defaults. */
  lsp?: LspConfig;
  /** R-UI-30: the UI's theme and the composer's vim mode (`ui.theme`, `ui.vim`). */
  ui?: { theme?: "dark" | "light" | "colorblind"; vim?: boolean };
}

/** One language server's settings (R-LSP-1): a new server needs `command` and `extensions`. */
export interface LspServerConfig {
  command?: string[];
  extensions?: string[];
  env?: Record<string, string>;
  initializationOptions?: unknown;
  disabled?: boolean;
}

export type LspConfig =
  | false
  | ({ diagnosticsTimeoutMs?: number } & Record<string, LspServerConfig | number>);

export interface StatusLineConfig {
  type: "command";
  command: string;
  /** Columns of space before the line (Claude Code's `padding`). */
  padding?: number;
}

export interface AgentsConfig {
  maxParallel: number;
  executionBudget: ExecutionBudget;
}

export interface TelemetryConfig {
  enabled?: boolean;
  endpoint?: string;
  headers?: Record<string, string>;
  protocol?: "http/protobuf" | "http/json";
  logPrompts?: boolean;
}

export interface HookGroupConfig {
  matcher?: string;
  hooks: { type: "command"; command: string; timeout?: number }[];
}

export interface CheckpointsConfig {
  enabled: boolean;
  /** Above this many files in the workspace, checkpoints are off with one notice. */
  maxFiles: number;
}

export interface SandboxConfig {
  mode: "off" | "read-only" | "workspace-write";
  network: boolean;
  /** Extra absolute folders a `workspace-write` command may write. */
  writableRoots: string[];
}

/** A model ready to call: provider endpoint resolved, key read from the environment. */
export interface ResolvedModel {
  /** `<provider>/<model>` */
  id: string;
  providerId: string;
  /** The model name sent on the wire. */
  name: string;
  endpoint: {
    api: ProviderApi;
    baseUrl: string;
    apiKey?: string;
    headers: Record<string, string>;
    compat?: ModelCompat & { reasoningEffort?: boolean; encryptedReasoning?: boolean };
    auth?: EndpointAuth;
    vertexAnthropic?: boolean;
  };
  info: ModelInfo;
  /** The reasoning level in force (R-PROV-10). */
  thinking: ThinkingLevel;
  hostedTools: HostedTool[];
}
