// The zod-free check of plain config files (plain-layer.ts) may only accept what the schema
// accepts, with the same layer: every key it checks is tried with a pool of values (boundaries,
// wrong types, nested fields), and each text it takes must parse to the same layer with the
// schema. The common files must be taken, or the start pays for zod again.
import { describe, expect, it } from "vitest";
import { MAX_TIMER_SECONDS } from "../../src/config/defaults.js";
import { parseConfigText } from "../../src/config/file/parse-layer.js";
import { plainLayer } from "../../src/config/plain-layer.js";

const SCALARS: unknown[] = [
  ...[0, 1, -1, 0.5, 0.999, 1.5, 999, 1000, 1001, MAX_TIMER_SECONDS, MAX_TIMER_SECONDS + 1, 1e300],
  ...[null, true, false, "", "x", "unlimited", "openai/gpt-4o", "no-slash", "/abs/path", "rel/path"],
  ...["ask", "yolo", "auto-edit", "plan", "off", "read-only", "workspace-write"],
  ...[[], ["bash(git status)"], ["read_file"], ["bad rule("], [1], ["/abs"], ["rel"]],
];
const FIELDS: Record<string, string[]> = {
  retry: ["maxRetries", "baseDelaySeconds", "factor", "jitter", "maxDelaySeconds", "other"],
  executionBudget: ["maximumModelCalls", "maximumToolCalls", "maximumDurationSeconds", "other"],
  agents: ["maxParallel", "executionBudget", "other"],
  compat: ["claude", "agents", "other"],
  checkpoints: ["enabled", "maxFiles", "other"],
  sandbox: ["mode", "network", "writableRoots", "other"],
  shellEnv: ["exclude", "include", "other"],
  permissions: ["mode", "allow", "deny", "other"],
};
const KEYS = [
  ...Object.keys(FIELDS),
  ...["model", "streamIdleTimeoutSeconds", "autoCompactThreshold", "maxTruncationContinues"],
  ...["idleNotificationSeconds", "trustedWorkspaces", "parallelTools", "toolOutputLimit"],
];

function schemaLayer(text: string): unknown {
  try {
    return parseConfigText(text, "config.json");
  } catch {
    return "refused";
  }
}

describe("plain config files without the schema", () => {
  it("takes only what the schema takes, as the same layer", () => {
    const texts: string[] = [];
    for (const key of KEYS) {
      for (const v of SCALARS) texts.push(JSON.stringify({ [key]: v }));
      for (const field of FIELDS[key] ?? []) {
        for (const v of SCALARS) texts.push(JSON.stringify({ [key]: { [field]: v } }));
        texts.push(JSON.stringify({ [key]: { [field]: { maximumModelCalls: 2 } } }));
      }
    }
    const looser = texts.filter((t) => {
      const plain = plainLayer(t);
      return plain !== undefined && JSON.stringify(schemaLayer(t)) !== JSON.stringify(plain);
    });
    expect(looser).toEqual([]);
    // The pool does reach both sides of most checks.
    expect(texts.filter((t) => plainLayer(t) !== undefined).length).toBeGreaterThan(100);
  });

  it.each([
    { retry: { baseDelaySeconds: 0.01 } },
    { model: "anthropic/claude-sonnet-4-5", permissions: { mode: "auto-edit", allow: ["bash(npm test)"] } },
    { trustedWorkspaces: ["/home/me/src"], executionBudget: "unlimited", parallelTools: false },
    { agents: { maxParallel: 2, executionBudget: { maximumModelCalls: 20, maximumDurationSeconds: null } } },
  ])("takes the common file %j", (layer) => {
    const text = JSON.stringify(layer, null, 2);
    expect(plainLayer(text)).toEqual(layer);
    expect(plainLayer(`\uFEFF${text}`)).toEqual(layer);
    expect(schemaLayer(text)).toEqual(layer);
  });

  it.each([
    ["a key the schema transforms", '{"bashTimeoutSeconds": "unlimited"}'],
    ["a map of providers", '{"providers": {"local": {"baseUrl": "http://127.0.0.1:1"}}}'],
    ["an unknown key", '{"modle": "openai/gpt-4o"}'],
    ["broken JSON", '{"model": '],
    ["not an object", "[1]"],
    ["an own __proto__ key", '{"retry": {"__proto__": {"maxRetries": 1}}}'],
  ])("leaves %s to the schema", (_, text) => {
    expect(plainLayer(text)).toBeUndefined();
  });
});
