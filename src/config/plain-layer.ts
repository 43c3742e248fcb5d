// A config file that sets only plain keys (numbers, flags, names, rule lists, flat objects of
// them) is checked here, without zod: parsing one with the schema cost every such start ~0.5 MB
// and ~3% CPU (bench/README.md). The checks only ever ACCEPT: anything they do not take — an
// unknown or non-plain key, a bad value, broken JSON — goes to the schema (file/parse-layer.ts),
// which then names the file, key and what it must be. So each check must be no looser than the
// schema's rule for its key (test/config/plain-layer.test.ts holds the two side by side).
import { isAbsolute } from "node:path";
import { MAX_TIMER_SECONDS } from "./defaults.js";
import { describeRuleError } from "./rule-syntax.js";
import type { ConfigLayer } from "./schema.js";
import { BUDGET_RULES, isInt, isNum, isPermissionMode, isSandboxMode, MODEL_ID_RE } from "./value-rules.js";

type Check = (v: unknown) => boolean;

const bool: Check = (v) => typeof v === "boolean";
const positiveNumber: Check = (v) => isNum(v) && v > 0;
const positiveInt: Check = (v) => isInt(v) && v > 0;
const nonNegativeInt: Check = (v) => isInt(v) && v >= 0;
const fraction: Check = (v) => isNum(v) && v >= 0 && v < 1;
const timerSeconds: Check = (v) => isNum(v) && v > 0 && v <= MAX_TIMER_SECONDS;
const listOf =
  (item: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(item);
const strings = listOf((s) => typeof s === "string");
const absolutePaths = listOf((s) => typeof s === "string" && isAbsolute(s));
const rules = listOf((s) => typeof s === "string" && describeRuleError(s) === null);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A strict object of optional fields, as the schema's `strictObject` of `optional`s. */
const fields =
  (shape: Record<string, Check>): Check =>
  (v) =>
    isObject(v) && Object.entries(v).every(([k, x]) => Object.hasOwn(shape, k) && shape[k](x));

const budget = fields({
  maximumModelCalls: BUDGET_RULES.maximumModelCalls.check,
  maximumToolCalls: BUDGET_RULES.maximumToolCalls.check,
  maximumDurationSeconds: BUDGET_RULES.maximumDurationSeconds.check,
  maximumCostUsd: BUDGET_RULES.maximumCostUsd.check,
});

/** The keys checked here; a key whose schema transforms its value or has nested maps is not one. */
const PLAIN_KEYS: Record<string, Check> = {
  model: (v) => typeof v === "string" && MODEL_ID_RE.test(v),
  retry: fields({
    maxRetries: nonNegativeInt,
    baseDelaySeconds: positiveNumber,
    factor: positiveNumber,
    jitter: fraction,
    maxDelaySeconds: positiveNumber,
  }),
  streamIdleTimeoutSeconds: timerSeconds,
  executionBudget: (v) => v === "unlimited" || budget(v),
  agents: fields({ maxParallel: positiveInt, executionBudget: budget }),
  autoCompactThreshold: fraction,
  maxTruncationContinues: nonNegativeInt,
  idleNotificationSeconds: positiveInt,
  trustedWorkspaces: absolutePaths,
  parallelTools: bool,
  compat: fields({ claude: bool, agents: bool }),
  checkpoints: fields({ enabled: bool, maxFiles: positiveInt }),
  sandbox: fields({ mode: isSandboxMode, network: bool, writableRoots: absolutePaths }),
  toolOutputLimit: (v) => isInt(v) && v >= 1000,
  mcpToolSearchThreshold: nonNegativeInt,
  shellEnv: fields({ exclude: strings, include: strings }),
  permissions: fields({ mode: isPermissionMode, allow: rules, deny: rules }),
};

/** The layer a config file's text sets, when it sets plain keys only and each is valid; else undefined. */
export function plainLayer(raw: string): ConfigLayer | undefined {
  const text = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(data)) return undefined;
  const plain = Object.entries(data).every(([k, v]) => Object.hasOwn(PLAIN_KEYS, k) && PLAIN_KEYS[k](v));
  return plain ? (data as ConfigLayer) : undefined;
}
