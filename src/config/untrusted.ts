// Workspace trust (R-CFG-2, §10): a `.tern/config.json` of a workspace that is not in the user's
// `trustedWorkspaces` may only tighten. It cannot loosen permissions, add tool sets, redirect
// providers, raise a budget, lengthen a timer or retry count, or change what tokens cost (a
// cheaper price hides spending), switch on provider-run search, raise thinking, change a model's protocol, or
// weaken the sandbox; its `permissions.deny` and `shellEnv.exclude` only add to the user's lists. Each key it may not set is dropped with a warning naming it.
import type { ConfigLayer } from "./schema.js";
import { formatPath } from "./key-path.js";
import type { Config, PermissionMode } from "./types.js";

// `plan` runs only what cannot change the workspace: stricter than `ask`, so a workspace may set it.
const LOOSENESS: Record<PermissionMode, number> = { plan: -1, ask: 0, "auto-edit": 1, yolo: 2 };
const SANDBOX_STRICTNESS = { off: 0, "workspace-write": 1, "read-only": 2 } as const;
const BUDGET_FIELDS = [
  "maximumModelCalls",
  "maximumToolCalls",
  "maximumDurationSeconds",
  "maximumCostUsd",
] as const;

/** `null` is "no limit", the loosest value of all. */
function raises(next: number | null, current: number | null): boolean {
  if (current === null) return false;
  return next === null || next > current;
}

export function restrictUntrusted(
  layer: ConfigLayer,
  label: string,
  current: Config,
  warnings: string[],
): ConfigLayer {
  const out: ConfigLayer = structuredClone(layer);
  const why = "this workspace is not in trustedWorkspaces";
  const ignore = (key: string, extra = "") => warnings.push(`${label}: ${key} ignored: ${why}${extra}`);
  if (out.permissions) {
    const { mode } = out.permissions;
    if (mode !== undefined && LOOSENESS[mode] > LOOSENESS[current.permissions.mode]) {
      ignore("permissions.mode", ` (only a stricter mode than "${current.permissions.mode}" applies)`);
      delete out.permissions.mode;
    }
    if (out.permissions.allow !== undefined) {
      ignore("permissions.allow");
      delete out.permissions.allow;
    }
    // Lists replace when layers merge: a workspace's list may only add to the user's.
    if (out.permissions.deny !== undefined)
      out.permissions.deny = addOnly(current.permissions.deny, out.permissions.deny);
  }
  if (out.sandbox) {
    // A workspace may switch the sandbox on or make it stricter, never weaker.
    const { mode, network } = out.sandbox;
    if (mode !== undefined && SANDBOX_STRICTNESS[mode] < SANDBOX_STRICTNESS[current.sandbox.mode]) {
      ignore("sandbox.mode", ` (only a stricter mode than "${current.sandbox.mode}" applies)`);
      delete out.sandbox.mode;
    }
    if (network === true && !current.sandbox.network) {
      ignore("sandbox.network");
      delete out.sandbox.network;
    }
    if (out.sandbox.writableRoots !== undefined) {
      ignore("sandbox.writableRoots");
      delete out.sandbox.writableRoots;
    }
  }
  if (out.toolSets !== undefined) {
    ignore("toolSets");
    delete out.toolSets;
  }
  // A cloned repository's hooks would run its own programs at every tool call (R-HOOK-4).
  if (out.hooks !== undefined) {
    ignore("hooks", " (its hooks never run)");
    delete out.hooks;
  }
  // A status line command runs the repository's own program about once a second (R-UI-23).
  if (out.statusLine !== undefined) {
    ignore("statusLine", " (its command never runs)");
    delete out.statusLine;
  }
  // A plugin runs its own hooks and servers (R-WF-6).
  if (out.plugins !== undefined) {
    ignore("plugins", " (its plugins are not loaded)");
    delete out.plugins;
  }
  // A language server is a program run on the workspace's files (R-LSP-4): a workspace may switch
  // servers off or shorten the wait, never name a program or change what a server is given.
  if (out.lsp) {
    for (const [name, server] of Object.entries(out.lsp)) {
      if (typeof server !== "object") continue;
      const { disabled, ...rest } = server;
      if (Object.keys(rest).length === 0) continue;
      ignore(`lsp.${name}`, disabled === true ? " (only disabled applies)" : "");
      if (disabled === true) out.lsp[name] = { disabled };
      else delete out.lsp[name];
    }
  }
  // Telemetry sends what the session did to an endpoint: a workspace cannot choose one.
  if (out.telemetry !== undefined) {
    ignore("telemetry");
    delete out.telemetry;
  }
  for (const [id, provider] of Object.entries(out.providers ?? {})) {
    for (const key of ["baseUrl", "apiKeyEnv", "headers"] as const) {
      if (provider[key] === undefined) continue;
      ignore(formatPath(["providers", id, key]));
      delete provider[key];
    }
    // Without a base URL a provider the workspace invented cannot be used; drop it whole.
    if (!current.providers[id] && out.providers) delete out.providers[id];
  }
  if (out.shellEnv?.include !== undefined) {
    // Passing a variable through to tools (and out of redaction) would let a repository read secrets.
    ignore("shellEnv.include");
    delete out.shellEnv.include;
  }
  // `"exclude": []` would otherwise replace the user's list and pass their excluded secrets to tools.
  if (out.shellEnv?.exclude !== undefined)
    out.shellEnv.exclude = addOnly(current.shellEnv.exclude, out.shellEnv.exclude);
  restrictLimits(out, current, ignore);
  for (const [id, model] of Object.entries(out.models ?? {})) {
    if (model.pricing !== undefined) {
      ignore(formatPath(["models", id, "pricing"]), " (prices are set by you, not by a workspace)");
      delete model.pricing;
    }
    // Provider-run searches and more thinking cost money, and a protocol change moves the traffic.
    if (model.hostedTools !== undefined && model.hostedTools.length > 0) {
      ignore(formatPath(["models", id, "hostedTools"]));
      delete model.hostedTools;
    }
    if (model.thinking !== undefined && model.thinking !== "off") {
      ignore(formatPath(["models", id, "thinking"]), ' (it may only set "off")');
      delete model.thinking;
    }
    if (model.api !== undefined) {
      ignore(formatPath(["models", id, "api"]));
      delete model.api;
    }
  }
  return out;
}

function addOnly(mine: readonly string[], theirs: readonly string[]): string[] {
  return [...new Set([...mine, ...theirs])];
}

/** Budgets, timers and retries: a lower value applies, a higher one (or "no limit") does not. */
function restrictLimits(
  out: ConfigLayer,
  current: Config,
  ignore: (key: string, extra?: string) => void,
): void {
  const onlyLower = " (it may only lower it)";
  const budget = out.executionBudget;
  if (budget === "unlimited") {
    if (BUDGET_FIELDS.some((f) => (current.executionBudget[f] ?? null) !== null)) {
      ignore("executionBudget", onlyLower);
      delete out.executionBudget;
    }
  } else if (budget) {
    for (const f of BUDGET_FIELDS) {
      const v = budget[f];
      if (v === undefined || !raises(v, current.executionBudget[f] ?? null)) continue;
      ignore(`executionBudget.${f}`, onlyLower);
      delete budget[f];
    }
  }
  // Sub-agents (R-AGENT-1): a child's budget and how many run at once only go down too.
  const agentBudget = out.agents?.executionBudget;
  for (const f of BUDGET_FIELDS) {
    const v = agentBudget?.[f];
    if (v === undefined || !raises(v, current.agents.executionBudget[f] ?? null)) continue;
    ignore(`agents.executionBudget.${f}`, onlyLower);
    delete agentBudget![f];
  }
  if (out.agents?.maxParallel !== undefined && out.agents.maxParallel > current.agents.maxParallel) {
    ignore("agents.maxParallel", onlyLower);
    delete out.agents.maxParallel;
  }
  if (out.bashTimeoutSeconds !== undefined && raises(out.bashTimeoutSeconds, current.bashTimeoutSeconds)) {
    ignore("bashTimeoutSeconds", onlyLower);
    delete out.bashTimeoutSeconds;
  }
  if (
    out.streamIdleTimeoutSeconds !== undefined &&
    out.streamIdleTimeoutSeconds > current.streamIdleTimeoutSeconds
  ) {
    ignore("streamIdleTimeoutSeconds", onlyLower);
    delete out.streamIdleTimeoutSeconds;
  }
  if (out.retry?.maxRetries !== undefined && out.retry.maxRetries > current.retry.maxRetries) {
    ignore("retry.maxRetries", onlyLower);
    delete out.retry.maxRetries;
  }
  for (const key of ["logMaxBytes", "sessionLogMaxBytes"] as const) {
    if (out.jobs?.[key] === undefined || out.jobs[key] <= current.jobs[key]) continue;
    ignore(`jobs.${key}`, onlyLower);
    delete out.jobs[key];
  }
  if (out.toolOutputLimit !== undefined && out.toolOutputLimit > current.toolOutputLimit) {
    ignore("toolOutputLimit", onlyLower);
    delete out.toolOutputLimit;
  }
  if (
    out.maxTruncationContinues !== undefined &&
    out.maxTruncationContinues > current.maxTruncationContinues
  ) {
    ignore("maxTruncationContinues", onlyLower);
    delete out.maxTruncationContinues;
  }
}
