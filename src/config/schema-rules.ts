// The value rules of the config schema, each failing with the one phrase its error line ends in
// ("must be a number > 0"), and the names and patterns the CLI flags check against too.
import * as z from "zod/mini";
import { MAX_TIMER_SECONDS } from "./defaults.js";
import { describeRuleError } from "./rule-syntax.js";

/** Built on first use: a start validates only the config keys its files set (schema.ts). */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

export const rule = <T>(check: (v: unknown) => boolean, expected: string) =>
  z.custom<T>((v) => v !== undefined && check(v), {
    error: (issue) => (issue.input === undefined ? "required" : expected),
  });
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
export const isInt = (v: unknown): v is number => Number.isInteger(v);

export const positiveNumber = once(() => rule<number>((v) => isNum(v) && v > 0, "must be a number > 0"));
export const nonNegativeNumber = once(() => rule<number>((v) => isNum(v) && v >= 0, "must be a number >= 0"));
export const nonNegativeInt = once(() =>
  rule<number>((v) => isInt(v) && (v as number) >= 0, "must be an integer >= 0"),
);
export const positiveInt = once(() =>
  rule<number>((v) => isInt(v) && (v as number) > 0, "must be a positive integer"),
);
export const fraction = once(() =>
  rule<number>((v) => isNum(v) && v >= 0 && v < 1, "must be a number in [0, 1)"),
);
export const timerSeconds = once(() =>
  rule<number>(
    (v) => isNum(v) && v > 0 && v <= MAX_TIMER_SECONDS,
    `must be a number > 0 and <= ${MAX_TIMER_SECONDS}`,
  ),
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

export const budgetField = (k: keyof typeof BUDGET_RULES) =>
  z.optional(rule<number | null>(BUDGET_RULES[k].check, BUDGET_RULES[k].expected));

export const SANDBOX_MODE_NAMES = ["off", "read-only", "workspace-write"] as const;
export type SandboxModeName = (typeof SANDBOX_MODE_NAMES)[number];
export const isSandboxMode = (v: unknown): v is SandboxModeName =>
  typeof v === "string" && (SANDBOX_MODE_NAMES as readonly string[]).includes(v);

export const MODEL_ID_RE = /^[^/\s]+\/\S+$/;
export const PROVIDER_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
export const TOOL_SET_NAME_RE = /^[a-z0-9_-]+$/;
export const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const modelString = once(() =>
  rule<string>(
    (v) => typeof v === "string" && MODEL_ID_RE.test(v),
    'must be "<provider>/<model>", e.g. "anthropic/claude-sonnet-4-5"',
  ),
);
export const httpUrl = once(() =>
  rule<string>((v) => {
    if (typeof v !== "string") return false;
    try {
      const u = new URL(v);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http(s) URL"),
);
export const stringList = once(() => z.array(z.string()));
/** Permission rules: a bad one is a configuration error naming its index (R-TOOL-2, R-CFG-1). */
export const ruleList = once(() =>
  z.array(
    z.string().check(
      z.superRefine((text, ctx) => {
        const error = describeRuleError(text);
        if (error) ctx.addIssue({ code: "custom", message: error });
      }),
    ),
  ),
);

export const API_NAMES = ["openai-chat", "openai-responses", "anthropic-messages"] as const;
export const apiRule = once(() =>
  rule<(typeof API_NAMES)[number]>(
    (v) => (API_NAMES as readonly unknown[]).includes(v),
    'must be "openai-chat", "openai-responses" or "anthropic-messages"',
  ),
);
export const THINKING_NAMES = ["off", "low", "medium", "high"] as const;
export const isThinkingLevel = (v: unknown): v is (typeof THINKING_NAMES)[number] =>
  (THINKING_NAMES as readonly unknown[]).includes(v);
