// The schema of one config file (a layer): every key optional, because merging needs to know
// what a layer actually set. Defaults live in defaults.ts, the value rules in schema-rules.ts;
// file/parse-layer.ts turns a failure into ONE line (R-CFG-1). Written with zod/mini: the same checks
// and issues as zod's chained API, but only what the schema uses is bundled — every run with a
// config file validates it, and the full API cost a start ~20 ms and ~5 MB.
import { isAbsolute } from "node:path";
import * as z from "zod/mini";
import { toolSet } from "./schema-tool-set.js";
import { MAX_TIMER_SECONDS } from "./defaults.js";
import type { PermissionMode } from "./types.js";
import {
  apiRule,
  budgetField,
  ENV_NAME_RE,
  fraction,
  httpUrl,
  isInt,
  isPermissionMode,
  isSandboxMode,
  isThinkingLevel,
  MODEL_ID_RE,
  modelString,
  nonNegativeInt,
  nonNegativeNumber,
  positiveInt,
  positiveNumber,
  PROVIDER_ID_RE,
  rule,
  ruleList,
  type SandboxModeName,
  stringList,
  type THINKING_NAMES,
  timerSeconds,
} from "./schema-rules.js";
import { lspSchema } from "./schema-lsp.js";
import { uiSettings } from "./ui-schema.js";
import { EDIT_TOOL_CHOICES } from "./edit-tool.js";

const optional = z.optional;
const stringMap = () => z.record(z.string(), z.string());

const provider = () =>
  z.strictObject({
    api: optional(apiRule()),
    baseUrl: optional(httpUrl()),
    apiKeyEnv: optional(
      rule<string>(
        (v) => typeof v === "string" && ENV_NAME_RE.test(v),
        "must be the NAME of an environment variable (e.g. OPENAI_API_KEY), not a key",
      ),
    ),
    headers: optional(stringMap()),
  });

const pricing = () =>
  z.strictObject({
    input: nonNegativeNumber(),
    output: nonNegativeNumber(),
    cacheRead: optional(nonNegativeNumber()),
    cacheWrite: optional(nonNegativeNumber()),
    webSearch: optional(nonNegativeNumber()),
  });

const compat = () =>
  z.strictObject({
    echoReasoning: optional(z.boolean()),
    maxTokensField: optional(z.enum(["max_tokens", "max_completion_tokens"])),
  });

const model = () =>
  z.strictObject({
    contextWindow: optional(positiveInt()),
    maxOutputTokens: optional(positiveInt()),
    images: optional(z.boolean()),
    pricing: optional(pricing()),
    compat: optional(compat()),
    reasoning: optional(z.boolean()),
    api: optional(apiRule()),
    thinking: optional(
      rule<(typeof THINKING_NAMES)[number]>(isThinkingLevel, 'must be "off", "low", "medium" or "high"'),
    ),
    hostedTools: optional(z.array(rule<"web_search">((v) => v === "web_search", 'must be "web_search"'))),
    structuredOutput: optional(z.boolean()),
    editTool: optional(z.enum(EDIT_TOOL_CHOICES)),
  });

/** A shell command line of Claude Code's `{"type": "command", "command": …}` entries. */
const commandLine = () =>
  rule<string>((v) => typeof v === "string" && v.trim().length > 0, "must be a non-empty string");

/** Claude Code's hook shape (R-HOOK-1): per event, matcher groups of `{"type": "command", …}` entries. */
const hookGroups = () =>
  z.array(
    z.object({
      matcher: optional(z.string()),
      hooks: z.array(
        z.object({
          type: z.literal("command"),
          command: commandLine(),
          timeout: optional(positiveNumber()),
        }),
      ),
    }),
  );

const HOOK_EVENT_RE =
  /^(PreToolUse|PostToolUse|UserPromptSubmit|Stop|SubagentStop|SessionStart|SessionEnd|PreCompact|Notification)$/;

/** A record whose keys must match `re`: each bad key is an issue naming it. */
const keyedBy = <T extends z.ZodMiniType>(values: T, re: RegExp, expected: string) =>
  z.record(z.string(), values).check(
    z.superRefine((rec, ctx) => {
      for (const key of Object.keys(rec)) {
        if (!re.test(key)) ctx.addIssue({ code: "custom", path: [key], message: `key ${expected}` });
      }
    }),
  );

const absolutePath = () =>
  rule<string>((v) => typeof v === "string" && isAbsolute(v), "must be an absolute path");

/** An `executionBudget` object (the session's, a sub-agent's). */
const budgetObject = () =>
  z.strictObject({
    maximumModelCalls: budgetField("maximumModelCalls"),
    maximumToolCalls: budgetField("maximumToolCalls"),
    maximumDurationSeconds: budgetField("maximumDurationSeconds"),
    maximumCostUsd: budgetField("maximumCostUsd"),
  });

/**
 * Each key's schema, built the first time a layer sets that key: building the whole schema costs
 * a start a few ms, and a config file sets a handful of keys (absent keys are optional, so the
 * schema of the keys present validates a layer exactly as the whole one would).
 */
const maybeBytes = () => optional(positiveInt());

const layerShape = {
  model: () => optional(modelString()),
  providers: () => optional(keyedBy(provider(), PROVIDER_ID_RE, "must be a provider id ([A-Za-z0-9_.-]+)")),
  models: () => optional(keyedBy(model(), MODEL_ID_RE, 'must be "<provider>/<model>"')),
  retry: () =>
    optional(
      z.strictObject({
        maxRetries: optional(nonNegativeInt()),
        baseDelaySeconds: optional(positiveNumber()),
        factor: optional(positiveNumber()),
        jitter: optional(fraction()),
        maxDelaySeconds: optional(positiveNumber()),
      }),
    ),
  streamIdleTimeoutSeconds: () => optional(timerSeconds()),
  executionBudget: () =>
    optional(
      z.union([z.literal("unlimited"), budgetObject()], { error: 'must be "unlimited" or an object' }),
    ),
  // R-AGENT-1: sub-agents (the `task` tool): children at once per batch, and each child's own budget.
  agents: () =>
    optional(
      z.strictObject({
        maxParallel: optional(positiveInt()),
        executionBudget: optional(budgetObject()),
      }),
    ),
  // §10 (amended 2026-12-07): job logs keep their newest part within these caps (bytes).
  jobs: () => optional(z.strictObject({ logMaxBytes: maybeBytes(), sessionLogMaxBytes: maybeBytes() })),
  bashTimeoutSeconds: () =>
    optional(
      z.pipe(
        rule<number | null | "unlimited">(
          (v) =>
            v === null ||
            v === "unlimited" ||
            (isInt(v) && (v as number) > 0 && (v as number) <= MAX_TIMER_SECONDS),
          `must be a positive integer <= ${MAX_TIMER_SECONDS}, null or "unlimited"`,
        ),
        z.transform((v: number | null | "unlimited") => (v === "unlimited" ? null : v)),
      ),
    ),
  toolSets: () =>
    optional(
      z.array(toolSet()).check(
        z.superRefine((sets, ctx) => {
          const seen = new Set<string>();
          sets.forEach((s, i) => {
            if (seen.has(s.name))
              ctx.addIssue({ code: "custom", path: [i, "name"], message: "duplicate tool set name" });
            seen.add(s.name);
          });
        }),
      ),
    ),
  autoCompactThreshold: () => optional(fraction()),
  maxTruncationContinues: () => optional(nonNegativeInt()),
  idleNotificationSeconds: () => optional(positiveInt()),
  trustedWorkspaces: () => optional(z.array(absolutePath())),
  parallelTools: () => optional(z.boolean()),
  // R-WF-5: reading Claude Code's (`claude`) and other agents' (`agents`) files.
  compat: () => optional(z.strictObject({ claude: optional(z.boolean()), agents: optional(z.boolean()) })),
  checkpoints: () =>
    optional(
      z.strictObject({
        enabled: optional(z.boolean()),
        maxFiles: optional(positiveInt()),
      }),
    ),
  sandbox: () =>
    optional(
      z.strictObject({
        mode: optional(
          rule<SandboxModeName>(isSandboxMode, 'must be "off", "read-only" or "workspace-write"'),
        ),
        network: optional(z.boolean()),
        writableRoots: optional(z.array(absolutePath())),
      }),
    ),
  telemetry: () =>
    optional(
      z.strictObject({
        enabled: optional(z.boolean()),
        endpoint: optional(httpUrl()),
        headers: optional(stringMap()),
        protocol: optional(z.enum(["http/protobuf", "http/json"])),
        logPrompts: optional(z.boolean()),
      }),
    ),
  hooks: () =>
    optional(keyedBy(hookGroups(), HOOK_EVENT_RE, "must be a hook event (PreToolUse, PostToolUse, …)")),
  // R-WF-6: Claude Code plugin folders to load.
  plugins: () => optional(z.array(z.string().check(z.minLength(1)))),
  // R-HOOK-2 (amended): "tern" keeps tern's tool names in this config's own hook payloads.
  hookToolNames: () => optional(z.enum(["claude", "tern"])),
  toolOutputLimit: () =>
    optional(rule<number>((v) => isInt(v) && (v as number) >= 1000, "must be an integer >= 1000")),
  mcpToolSearchThreshold: () =>
    optional(rule<number>((v) => isInt(v) && (v as number) >= 0, "must be an integer >= 0")),
  shellEnv: () =>
    optional(z.strictObject({ exclude: optional(stringList()), include: optional(stringList()) })),
  permissions: () =>
    optional(
      z.strictObject({
        mode: optional(
          rule<PermissionMode>(isPermissionMode, 'must be "ask", "auto-edit", "yolo" or "plan"'),
        ),
        allow: optional(ruleList()),
        deny: optional(ruleList()),
      }),
    ),
  lsp: () => lspSchema(),
  ui: uiSettings,
  // R-UI-23: Claude Code's `statusLine` shape; the command's first output line is the status line.
  statusLine: () =>
    optional(
      z.object({
        type: z.literal("command"),
        command: commandLine(),
        padding: optional(nonNegativeInt()),
      }),
    ),
};

type LayerShape = { [K in keyof typeof layerShape]: ReturnType<(typeof layerShape)[K]> };
const builtKeys = new Map<string, z.ZodMiniType>();

/** The schema of a layer with `keys`: strict, so any key not in the shape is an unknown key. */
export function layerSchemaFor(keys: readonly string[]): z.ZodMiniObject<Partial<LayerShape>> {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const key of Object.keys(layerShape) as (keyof LayerShape)[]) {
    if (!keys.includes(key)) continue;
    let schema = builtKeys.get(key);
    if (!schema) builtKeys.set(key, (schema = layerShape[key]()));
    shape[key] = schema;
  }
  return z.strictObject(shape) as unknown as z.ZodMiniObject<Partial<LayerShape>>;
}

/** One validated layer (a file, or the CLI flags). */
export type ConfigLayer = z.output<z.ZodMiniObject<LayerShape, z.core.$strict>>;
