// Maps CLI flags onto a config layer, validating numbers with the config's own rules so a
// bad flag fails the same way a bad file does, naming the flag.
import { ConfigError } from "./errors.js";
import { describeRuleError } from "./rule-syntax.js";
import type { ConfigLayer } from "./schema.js";
import {
  BUDGET_RULES,
  isPermissionMode,
  isSandboxMode,
  PERMISSION_MODE_NAMES,
  isThinkingLevel,
  MODEL_ID_RE,
  SANDBOX_MODE_NAMES,
  THINKING_NAMES,
} from "./value-rules.js";
import type { ThinkingLevel } from "../vocab/levels.js";
import type { PermissionMode } from "./types.js";

/** `--thinking <level>` / `/thinking <level>`: one clear line when the level is not one of ours. */
export function parseThinking(raw: string, label = "--thinking"): ThinkingLevel {
  const value = raw.trim().toLowerCase();
  if (!isThinkingLevel(value))
    throw new ConfigError(`${label}: must be ${THINKING_NAMES.join(", ")}, got '${raw}'`);
  return value;
}

export interface ConfigFlags {
  model?: string;
  /** `--allow <rule>`, repeatable; appended to `permissions.allow`. */
  allow?: string[];
  /** `--yes`: approve every tool call (deny rules still win). */
  yes?: boolean;
  maxModelCalls?: string | number;
  maxToolCalls?: string | number;
  maxDuration?: string | number;
  maxBudgetUsd?: string | number;
  /** `--sandbox <mode>`: `sandbox.mode` for this run. */
  sandbox?: string;
  /** `--mode <mode>`: `permissions.mode` for this run (R-PLAN-1), over the yolo of `--yes`. */
  mode?: string;
}

/** `--mode <mode>`: one clear line when it is not a permission mode. */
export function parseMode(raw: string): PermissionMode {
  if (!isPermissionMode(raw))
    throw new ConfigError(`--mode: must be ${PERMISSION_MODE_NAMES.join(", ")}, got '${raw}'`);
  return raw;
}

function budgetValue(
  flag: string,
  raw: string | number,
  rule: (typeof BUDGET_RULES)[keyof typeof BUDGET_RULES],
) {
  let value: number | null;
  if (typeof raw === "number") value = raw;
  else if (raw.trim() === "unlimited") value = null;
  else value = /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!rule.check(value))
    throw new ConfigError(`${flag}: ${rule.expected.replace(/or null$/, 'or "unlimited"')}`);
  return value;
}

export function flagsToConfig(opts: ConfigFlags): ConfigLayer {
  const layer: ConfigLayer = {};
  if (opts.model !== undefined) {
    if (!MODEL_ID_RE.test(opts.model)) {
      throw new ConfigError(
        `--model: '${opts.model}' is not "<provider>/<model>", e.g. --model anthropic/claude-sonnet-4-5`,
      );
    }
    layer.model = opts.model;
  }
  const budget: {
    maximumModelCalls?: number | null;
    maximumToolCalls?: number | null;
    maximumDurationSeconds?: number | null;
    maximumCostUsd?: number | null;
  } = {};
  if (opts.maxModelCalls !== undefined) {
    budget.maximumModelCalls = budgetValue(
      "--max-model-calls",
      opts.maxModelCalls,
      BUDGET_RULES.maximumModelCalls,
    );
  }
  if (opts.maxToolCalls !== undefined) {
    budget.maximumToolCalls = budgetValue(
      "--max-tool-calls",
      opts.maxToolCalls,
      BUDGET_RULES.maximumToolCalls,
    );
  }
  if (opts.maxDuration !== undefined) {
    budget.maximumDurationSeconds = budgetValue(
      "--max-duration",
      opts.maxDuration,
      BUDGET_RULES.maximumDurationSeconds,
    );
  }
  if (opts.maxBudgetUsd !== undefined) {
    budget.maximumCostUsd = budgetValue("--max-budget-usd", opts.maxBudgetUsd, BUDGET_RULES.maximumCostUsd);
  }
  if (Object.keys(budget).length > 0) layer.executionBudget = budget;
  if (opts.sandbox !== undefined) {
    if (!isSandboxMode(opts.sandbox))
      throw new ConfigError(`--sandbox: must be ${SANDBOX_MODE_NAMES.join(", ")}, got '${opts.sandbox}'`);
    layer.sandbox = { mode: opts.sandbox };
  }
  const mode = opts.mode !== undefined ? parseMode(opts.mode) : undefined;
  if (opts.yes || mode || (opts.allow && opts.allow.length > 0)) {
    layer.permissions = {};
    // `--yes --mode plan` keeps planning: --yes then approves what would ask (bash with no sandbox).
    if (opts.yes) layer.permissions.mode = "yolo";
    if (mode) layer.permissions.mode = mode;
    if (opts.allow && opts.allow.length > 0) {
      for (const text of opts.allow) {
        const error = describeRuleError(text);
        if (error) throw new ConfigError(`--allow: ${error}`);
      }
      layer.permissions.allow = [...opts.allow];
    }
  }
  return layer;
}
