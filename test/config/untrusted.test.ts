// An untrusted workspace config only tightens (R-CFG-2, §10): budgets, timers, retries and prices
// included; invalid permission rules are configuration errors in any layer (R-TOOL-2, R-CFG-1).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { flagsToConfig } from "../../src/config/flags.js";
import { loadConfig } from "../../src/config/load.js";
import { readRule } from "../../src/config/rule-syntax.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const writeUser = (c: unknown) => writeFileSync(join(dirs.home, "config.json"), JSON.stringify(c));
const writeWs = (c: unknown, raw?: string) => {
  mkdirSync(join(dirs.workspace, ".tern"), { recursive: true });
  writeFileSync(join(dirs.workspace, ".tern", "config.json"), raw ?? JSON.stringify(c));
};
const load = (flags: any = {}) => loadConfig({ home: dirs.home, cwd: dirs.workspace, flags, env: {} });

describe("untrusted workspace limits", () => {
  it("may lower budgets, timers and retries, never raise them or lift them", () => {
    writeUser({
      executionBudget: { maximumToolCalls: 50 },
      bashTimeoutSeconds: 60,
      retry: { maxRetries: 2 },
    });
    writeWs({
      executionBudget: { maximumModelCalls: 10, maximumToolCalls: null, maximumDurationSeconds: 2000000 },
      bashTimeoutSeconds: null,
      streamIdleTimeoutSeconds: 1000,
      retry: { maxRetries: 9 },
      maxTruncationContinues: 5,
    });
    const { config, warnings } = load();
    expect(config.executionBudget).toEqual({
      maximumModelCalls: 10,
      maximumToolCalls: 50,
      maximumDurationSeconds: 604800,
    });
    expect(config.bashTimeoutSeconds).toBe(60);
    expect(config.streamIdleTimeoutSeconds).toBe(300);
    expect(config.retry.maxRetries).toBe(2);
    expect(config.maxTruncationContinues).toBe(0);
    for (const key of [
      "executionBudget.maximumToolCalls",
      "executionBudget.maximumDurationSeconds",
      "bashTimeoutSeconds",
      "streamIdleTimeoutSeconds",
      "retry.maxRetries",
      "maxTruncationContinues",
    ])
      expect(warnings.some((w) => w.includes(`${key} ignored`))).toBe(true);
    expect(warnings.some((w) => w.includes("maximumModelCalls ignored"))).toBe(false);
  });

  it('"unlimited" budgets and prices are ignored; lower timers apply', () => {
    writeWs({
      executionBudget: "unlimited",
      bashTimeoutSeconds: 5,
      models: { "openai/gpt-5": { pricing: { input: 0, output: 0 }, contextWindow: 1000 } },
    });
    const { config, warnings } = load();
    expect(config.executionBudget.maximumModelCalls).toBe(1024);
    expect(config.bashTimeoutSeconds).toBe(5);
    expect(config.models["openai/gpt-5"]).toEqual({ contextWindow: 1000 });
    expect(warnings.some((w) => w.includes('models["openai/gpt-5"].pricing ignored'))).toBe(true);
  });

  it("cannot raise the tool output limit, pass variables to tools, or weaken the sandbox", () => {
    writeUser({ sandbox: { mode: "workspace-write" } });
    writeWs({
      toolOutputLimit: 1_000_000,
      shellEnv: { include: ["AWS_SECRET_ACCESS_KEY"], exclude: ["MY_TOKEN"] },
      sandbox: { mode: "off", network: true, writableRoots: ["/"] },
    });
    const { config, warnings } = load();
    expect(config.toolOutputLimit).toBe(30_000);
    expect(config.shellEnv.include ?? []).not.toContain("AWS_SECRET_ACCESS_KEY");
    expect(config.shellEnv.exclude).toContain("MY_TOKEN");
    expect(config.sandbox).toEqual({ mode: "workspace-write", network: false, writableRoots: [] });
    for (const key of [
      "toolOutputLimit",
      "shellEnv.include",
      "sandbox.mode",
      "sandbox.network",
      "sandbox.writableRoots",
    ])
      expect(warnings.some((w) => w.includes(`${key} ignored`))).toBe(true);
    writeWs({ toolOutputLimit: 5000 });
    expect(load().config.toolOutputLimit).toBe(5000);
  });

  it("an untrusted workspace cannot switch on hosted search, raise thinking or change a model's protocol", () => {
    writeWs({
      models: {
        "openai/gpt-5": { hostedTools: ["web_search"], thinking: "high", api: "openai-chat" },
        "anthropic/claude-sonnet-4-5": { thinking: "off", hostedTools: [] },
      },
    });
    const { config, warnings } = load();
    expect(config.models["openai/gpt-5"]).toEqual({});
    expect(config.models["anthropic/claude-sonnet-4-5"]).toEqual({ thinking: "off", hostedTools: [] });
    for (const key of ["hostedTools", "thinking", "api"])
      expect(warnings.some((w) => w.includes(`models["openai/gpt-5"].${key} ignored`))).toBe(true);
  });

  it("a trusted workspace may raise them", () => {
    writeUser({ trustedWorkspaces: [dirs.workspace] });
    writeWs({ executionBudget: "unlimited", bashTimeoutSeconds: null });
    const { config, warnings } = load();
    expect(config.executionBudget.maximumModelCalls).toBeNull();
    expect(config.bashTimeoutSeconds).toBeNull();
    expect(warnings).toEqual([]);
  });

  it("a byte-order mark is accepted in every config file", () => {
    writeWs(null, `\uFEFF${JSON.stringify({ bashTimeoutSeconds: 7 })}`);
    expect(load().config.bashTimeoutSeconds).toBe(7);
  });
});

describe("rule syntax is checked at load", () => {
  it.each(["bash(", "bash()", "bash(git", "no good(", "", "bash)(", "a b"])("%j is refused", (text) => {
    expect("error" in readRule(text)).toBe(true);
  });

  it.each([
    "bash",
    "bash(git status*)",
    "mcp__fs__*",
    "fs__write(*)",
    "write_file(src/**)",
    "bash(echo (a))",
  ])("%j is a rule", (text) => expect("error" in readRule(text)).toBe(false));

  it("names the layer and the key, or the flag", () => {
    writeUser({ permissions: { allow: ["bash(ls*)", "bash("] } });
    expect(() => load()).toThrow(ConfigError);
    expect(() => load()).toThrow(/config\.json: permissions\.allow\[1\]: invalid rule "bash\(": missing \)/);
    writeUser({});
    writeWs({ permissions: { deny: ["rm -rf"] } });
    expect(() => load()).toThrow(/\.tern\/config\.json: permissions\.deny\[0\]: invalid rule "rm -rf"/);
    expect(() => flagsToConfig({ allow: ["bash(git status*)", "bash("] })).toThrow(
      /^--allow: invalid rule "bash\("/,
    );
  });
});
