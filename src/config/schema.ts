// The schema of one config file (a layer): every key optional, because merging needs to know
// what a layer actually set. Defaults live in defaults.ts; errors become ONE line (R-CFG-1).
import { isAbsolute } from "node:path";
import { z } from "zod";
import { MAX_TIMER_SECONDS } from "./defaults.js";
import { ConfigError } from "./errors.js";
import { findJsonSyntaxError } from "./json-position.js";
import { describeRuleError } from "./rule-syntax.js";

const rule = <T>(check: (v: unknown) => boolean, expected: string) =>
  z.custom<T>((v) => v !== undefined && check(v), {
    error: (issue) => (issue.input === undefined ? "required" : expected),
  });
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);

export const positiveNumber = rule<number>((v) => isNum(v) && v > 0, "must be a number > 0");
const nonNegativeNumber = rule<number>((v) => isNum(v) && v >= 0, "must be a number >= 0");
const nonNegativeInt = rule<number>((v) => isInt(v) && (v as number) >= 0, "must be an integer >= 0");
const positiveInt = rule<number>((v) => isInt(v) && (v as number) > 0, "must be a positive integer");
const fraction = rule<number>((v) => isNum(v) && v >= 0 && v < 1, "must be a number in [0, 1)");
const timerSeconds = rule<number>(
  (v) => isNum(v) && v > 0 && v <= MAX_TIMER_SECONDS,
  `must be a number > 0 and <= ${MAX_TIMER_SECONDS}`,
);

/** Budget field rules, shared with the CLI flags (R-BUD-1). */
export const BUDGET_RULES = {
  maximumModelCalls: {
    check: (v: unknown) => v === null || (isInt(v) && (v as number) > 0),
    expected: "must be a positive integer or null",
  },
  maximumToolCalls: {
    check: (v: unknown) => v === null || (isInt(v) && (v as number) >= 0),
    expected: "must be an integer >= 0 or null",
  },
  maximumDurationSeconds: {
    check: (v: unknown) => v === null || (isNum(v) && v > 0 && v <= MAX_TIMER_SECONDS),
    expected: `must be a number > 0 and <= ${MAX_TIMER_SECONDS}, or null`,
  },
} as const;

const budgetField = (k: keyof typeof BUDGET_RULES) =>
  rule<number | null>(BUDGET_RULES[k].check, BUDGET_RULES[k].expected).optional();

export const SANDBOX_MODE_NAMES = ["off", "read-only", "workspace-write"] as const;
export type SandboxModeName = (typeof SANDBOX_MODE_NAMES)[number];
export const isSandboxMode = (v: unknown): v is SandboxModeName =>
  typeof v === "string" && (SANDBOX_MODE_NAMES as readonly string[]).includes(v);

export const MODEL_ID_RE = /^[^/\s]+\/\S+$/;
const PROVIDER_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const TOOL_SET_NAME_RE = /^[a-z0-9_-]+$/;
const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

const modelString = rule<string>(
  (v) => typeof v === "string" && MODEL_ID_RE.test(v),
  'must be "<provider>/<model>", e.g. "anthropic/claude-sonnet-4-5"',
);
const httpUrl = rule<string>((v) => {
  if (typeof v !== "string") return false;
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}, "must be an http(s) URL");
const stringList = z.array(z.string());
/** Permission rules: a bad one is a configuration error naming its index (R-TOOL-2, R-CFG-1). */
const ruleList = z.array(
  z.string().superRefine((text, ctx) => {
    const error = describeRuleError(text);
    if (error) ctx.addIssue({ code: "custom", message: error });
  }),
);

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

export const API_NAMES = ["openai-chat", "openai-responses", "anthropic-messages"] as const;
const apiRule = rule<(typeof API_NAMES)[number]>(
  (v) => (API_NAMES as readonly unknown[]).includes(v),
  'must be "openai-chat", "openai-responses" or "anthropic-messages"',
);
export const THINKING_NAMES = ["off", "low", "medium", "high"] as const;
export const isThinkingLevel = (v: unknown): v is (typeof THINKING_NAMES)[number] =>
  (THINKING_NAMES as readonly unknown[]).includes(v);

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

/** `a.b[0]["openai/gpt-4.1"]` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(String(seg))) out += out ? `.${String(seg)}` : String(seg);
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

type Issue = z.core.$ZodIssue;

/** Descends into the union branch that got furthest, so `executionBudget.x` errors name `x`. */
function pickIssue(issue: Issue): Issue {
  if (issue.code !== "invalid_union") return issue;
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    for (const inner of branch) {
      if (inner.path.length > 0 || inner.code === "unrecognized_keys") {
        if (!best) best = { ...inner, path: [...issue.path, ...inner.path] } as Issue;
      }
    }
  }
  return best ? pickIssue(best) : issue;
}

function describe(issue: Issue): { path: PropertyKey[]; text: string } {
  const path = [...issue.path];
  if (issue.code === "unrecognized_keys") {
    path.push(issue.keys[0]);
    return { path, text: "unknown key" };
  }
  if (issue.code === "invalid_type") {
    const input = (issue as { input?: unknown }).input;
    if (input === undefined) return { path, text: "required" };
    const expected: Record<string, string> = {
      object: "must be an object",
      array: "must be an array",
      string: "must be a string",
      boolean: "must be true or false",
    };
    return { path, text: expected[issue.expected] ?? `must be ${issue.expected}` };
  }
  return { path, text: issue.message };
}

/** Validates parsed JSON as a layer; `label` names the file in the error. */
export function validateLayer(data: unknown, label: string): ConfigLayer {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ConfigError(`${label}: must be a JSON object`);
  }
  const result = layerSchema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  const { path, text } = describe(pickIssue(result.error.issues[0]));
  throw new ConfigError(path.length ? `${label}: ${formatPath(path)}: ${text}` : `${label}: ${text}`);
}

/** Parses and validates one config file's text. */
export function parseConfigText(raw: string, label: string): ConfigLayer {
  // A byte-order mark is what some editors put first; JSON.parse rejects it (§10).
  const text = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    if (text.trim() === "") throw new ConfigError(`${label}: empty file (expected a JSON object)`);
    const at = findJsonSyntaxError(text);
    throw new ConfigError(
      at ? `${label}:${at.line}:${at.column}: invalid JSON: ${at.message}` : `${label}: invalid JSON`,
    );
  }
  return validateLayer(data, label);
}
