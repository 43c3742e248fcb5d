// The value rules of the config schema, each failing with the one phrase its error line ends in
// ("must be a number > 0"). The names and patterns the CLI flags check against too are in
// value-rules.ts, without zod: a start with no config file never loads zod.
import * as z from "zod/mini";
import { MAX_TIMER_SECONDS } from "./defaults.js";
import { describeRuleError } from "./rule-syntax.js";
import { API_NAMES, BUDGET_RULES, isInt, isNum, MODEL_ID_RE } from "./value-rules.js";

export * from "./value-rules.js";

/** Built on first use: a start validates only the config keys its files set (schema.ts). */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

export const rule = <T>(check: (v: unknown) => boolean, expected: string) =>
  z.custom<T>((v) => v !== undefined && check(v), {
    error: (issue) => (issue.input === undefined ? "required" : expected),
  });

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

export const budgetField = (k: keyof typeof BUDGET_RULES) =>
  z.optional(rule<number | null>(BUDGET_RULES[k].check, BUDGET_RULES[k].expected));

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

export const apiRule = once(() =>
  rule<(typeof API_NAMES)[number]>(
    (v) => (API_NAMES as readonly unknown[]).includes(v),
    'must be "openai-chat", "openai-responses", "anthropic-messages", "google-gemini" or "bedrock-converse"',
  ),
);
