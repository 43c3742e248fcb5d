// The names, patterns and checks of config values that need no schema: the CLI flags and model
// resolution use them on every start, and the schema (schema-rules.ts, with zod) builds on them.
import { MAX_TIMER_SECONDS } from "./defaults.js";

export const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
export const isInt = (v: unknown): v is number => Number.isInteger(v);

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
  // R-PROV-17: a spending cap in USD per turn.
  maximumCostUsd: {
    check: (v: unknown) => v === null || (isNum(v) && v > 0),
    expected: "must be a number of US dollars > 0, or null",
  },
} as const;

export const PERMISSION_MODE_NAMES = ["ask", "auto-edit", "yolo", "plan"] as const;
export const isPermissionMode = (v: unknown): v is (typeof PERMISSION_MODE_NAMES)[number] =>
  typeof v === "string" && (PERMISSION_MODE_NAMES as readonly string[]).includes(v);

export const SANDBOX_MODE_NAMES = ["off", "read-only", "workspace-write"] as const;
export type SandboxModeName = (typeof SANDBOX_MODE_NAMES)[number];
export const isSandboxMode = (v: unknown): v is SandboxModeName =>
  typeof v === "string" && (SANDBOX_MODE_NAMES as readonly string[]).includes(v);

export const MODEL_ID_RE = /^[^/\s]+\/\S+$/;
export const PROVIDER_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
export const TOOL_SET_NAME_RE = /^[a-z0-9_-]+$/;
export const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const API_NAMES = [
  "openai-chat",
  "openai-responses",
  "anthropic-messages",
  "google-gemini",
  "bedrock-converse",
] as const;
export const THINKING_NAMES = ["off", "low", "medium", "high"] as const;
export const isThinkingLevel = (v: unknown): v is (typeof THINKING_NAMES)[number] =>
  (THINKING_NAMES as readonly unknown[]).includes(v);
