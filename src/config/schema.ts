// The schema of one config file (a layer): every key optional, because merging needs to know
// what a layer actually set. Defaults live in defaults.ts, the value rules in schema-rules.ts;
// parse-layer.ts turns a failure into ONE line (R-CFG-1).
import { isAbsolute } from "node:path";
import { z } from "zod";
import { MAX_TIMER_SECONDS } from "./defaults.js";
import {
  apiRule,
  budgetField,
  ENV_NAME_RE,
  fraction,
  httpUrl,
  isInt,
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
  TOOL_SET_NAME_RE,
} from "./schema-rules.js";

/** One MCP server (R-EXT): stdio (`command`) or Streamable HTTP (`url`), never both. */
const toolSet = z
  .strictObject({
    name: rule<string>((v) => typeof v === "string" && TOOL_SET_NAME_RE.test(v), "must match [a-z0-9_-]+"),
    command: rule<string>(
      (v) => typeof v === "string" && v.length > 0,
      "must be a non-empty string",
    ).optional(),
    args: stringList.default([]),
    env: z.record(z.string(), z.string()).default({}),
    url: httpUrl.optional(),
    headers: z.record(z.string(), z.string()).optional(),
    timeoutSeconds: timerSeconds.default(120),
    startTimeoutSeconds: timerSeconds.default(30),
  })
  .superRefine((set, ctx) => {
    if (set.command === undefined && set.url === undefined)
      ctx.addIssue({ code: "custom", path: ["command"], message: "required (or url for an HTTP server)" });
    if (set.command !== undefined && set.url !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["url"],
        message: "a tool set has either command or url, not both",
      });
  });

const provider = z.strictObject({
  api: apiRule.optional(),
  baseUrl: httpUrl.optional(),
  apiKeyEnv: rule<string>(
    (v) => typeof v === "string" && ENV_NAME_RE.test(v),
    "must be the NAME of an environment variable (e.g. OPENAI_API_KEY), not a key",
  ).optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const pricing = z.strictObject({
  input: nonNegativeNumber,
  output: nonNegativeNumber,
  cacheRead: nonNegativeNumber.optional(),
  cacheWrite: nonNegativeNumber.optional(),
  webSearch: nonNegativeNumber.optional(),
});

const compat = z.strictObject({
  echoReasoning: z.boolean().optional(),
  maxTokensField: z.enum(["max_tokens", "max_completion_tokens"]).optional(),
});

const model = z.strictObject({
  contextWindow: positiveInt.optional(),
  maxOutputTokens: positiveInt.optional(),
  images: z.boolean().optional(),
  pricing: pricing.optional(),
  compat: compat.optional(),
  reasoning: z.boolean().optional(),
  api: apiRule.optional(),
  thinking: rule<(typeof THINKING_NAMES)[number]>(
    isThinkingLevel,
    'must be "off", "low", "medium" or "high"',
  ).optional(),
  hostedTools: z.array(rule<"web_search">((v) => v === "web_search", 'must be "web_search"')).optional(),
});

const keyedBy = (re: RegExp, expected: string) => (rec: Record<string, unknown>, ctx: z.RefinementCtx) => {
  for (const key of Object.keys(rec)) {
    if (!re.test(key)) ctx.addIssue({ code: "custom", path: [key], message: `key ${expected}` });
  }
};

export const layerSchema = z.strictObject({
  model: modelString.optional(),
  providers: z
    .record(z.string(), provider)
    .superRefine(keyedBy(PROVIDER_ID_RE, "must be a provider id ([A-Za-z0-9_.-]+)"))
    .optional(),
  models: z
    .record(z.string(), model)
    .superRefine(keyedBy(MODEL_ID_RE, 'must be "<provider>/<model>"'))
    .optional(),
  retry: z
    .strictObject({
      maxRetries: nonNegativeInt.optional(),
      baseDelaySeconds: positiveNumber.optional(),
      factor: positiveNumber.optional(),
      jitter: fraction.optional(),
      maxDelaySeconds: positiveNumber.optional(),
    })
    .optional(),
  streamIdleTimeoutSeconds: timerSeconds.optional(),
  executionBudget: z
    .union(
      [
        z.literal("unlimited"),
        z.strictObject({
          maximumModelCalls: budgetField("maximumModelCalls"),
          maximumToolCalls: budgetField("maximumToolCalls"),
          maximumDurationSeconds: budgetField("maximumDurationSeconds"),
        }),
      ],
      { error: 'must be "unlimited" or an object' },
    )
    .optional(),
  bashTimeoutSeconds: rule<number | null | "unlimited">(
    (v) =>
      v === null ||
      v === "unlimited" ||
      (isInt(v) && (v as number) > 0 && (v as number) <= MAX_TIMER_SECONDS),
    `must be a positive integer <= ${MAX_TIMER_SECONDS}, null or "unlimited"`,
  )
    .transform((v) => (v === "unlimited" ? null : v))
    .optional(),
  toolSets: z
    .array(toolSet)
    .superRefine((sets, ctx) => {
      const seen = new Set<string>();
      sets.forEach((s, i) => {
        if (seen.has(s.name))
          ctx.addIssue({ code: "custom", path: [i, "name"], message: "duplicate tool set name" });
        seen.add(s.name);
      });
    })
    .optional(),
  autoCompactThreshold: fraction.optional(),
  maxTruncationContinues: nonNegativeInt.optional(),
  trustedWorkspaces: z
    .array(rule<string>((v) => typeof v === "string" && isAbsolute(v), "must be an absolute path"))
    .optional(),
  parallelTools: z.boolean().optional(),
  checkpoints: z
    .strictObject({
      enabled: z.boolean().optional(),
      maxFiles: positiveInt.optional(),
    })
    .optional(),
  sandbox: z
    .strictObject({
      mode: rule<SandboxModeName>(
        isSandboxMode,
        'must be "off", "read-only" or "workspace-write"',
      ).optional(),
      network: z.boolean().optional(),
      writableRoots: z
        .array(rule<string>((v) => typeof v === "string" && isAbsolute(v), "must be an absolute path"))
        .optional(),
    })
    .optional(),
  toolOutputLimit: rule<number>(
    (v) => isInt(v) && (v as number) >= 1000,
    "must be an integer >= 1000",
  ).optional(),
  shellEnv: z.strictObject({ exclude: stringList.optional(), include: stringList.optional() }).optional(),
  permissions: z
    .strictObject({
      mode: rule<"ask" | "auto-edit" | "yolo">(
        (v) => v === "ask" || v === "auto-edit" || v === "yolo",
        'must be "ask", "auto-edit" or "yolo"',
      ).optional(),
      allow: ruleList.optional(),
      deny: ruleList.optional(),
    })
    .optional(),
});

/** One validated layer (a file, or the CLI flags). */
export type ConfigLayer = z.output<typeof layerSchema>;
