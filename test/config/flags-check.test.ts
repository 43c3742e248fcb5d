import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatConfigCheck } from "../../src/config/check.js";
import { ConfigError } from "../../src/config/errors.js";
import { flagsToConfig } from "../../src/config/flags.js";
import { loadConfig } from "../../src/config/load.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

describe("flagsToConfig", () => {
  it("maps each flag to its config key", () => {
    expect(flagsToConfig({})).toEqual({});
    expect(
      flagsToConfig({
        model: "openai/gpt-4o",
        allow: ["bash(ls)"],
        yes: true,
        maxModelCalls: "10",
        maxToolCalls: "0",
        maxDuration: "1.5",
      }),
    ).toEqual({
      model: "openai/gpt-4o",
      permissions: { mode: "yolo", allow: ["bash(ls)"] },
      executionBudget: { maximumModelCalls: 10, maximumToolCalls: 0, maximumDurationSeconds: 1.5 },
    });
    expect(flagsToConfig({ maxModelCalls: "unlimited" })).toEqual({
      executionBudget: { maximumModelCalls: null },
    });
  });

  it.each([
    [{ maxModelCalls: "0" }, '--max-model-calls: must be a positive integer or "unlimited"'],
    [{ maxModelCalls: "2.5" }, "--max-model-calls: must be a positive integer"],
    [{ maxModelCalls: "ten" }, "--max-model-calls: must be a positive integer"],
    [{ maxToolCalls: "-1" }, '--max-tool-calls: must be an integer >= 0 or "unlimited"'],
    [{ maxDuration: "0" }, "--max-duration: must be a number > 0 and <= 2147483"],
    [{ maxDuration: "3000000" }, "--max-duration: must be a number > 0 and <= 2147483"],
    [{ model: "gpt-4o" }, "--model: 'gpt-4o' is not \"<provider>/<model>\""],
  ])("%j → %s", (flags, expected) => {
    expect(() => flagsToConfig(flags)).toThrow(ConfigError);
    expect(() => flagsToConfig(flags)).toThrow(expected);
  });
});

describe("formatConfigCheck", () => {
  let dirs: TempDirs;
  beforeEach(() => {
    dirs = makeTempDirs();
  });
  afterEach(() => dirs.cleanup());

  it("prints each merged value with its source, key presence and warnings, never secrets", () => {
    const secret = "sk-SECRET-VALUE";
    writeFileSync(
      join(dirs.home, "config.json"),
      JSON.stringify({
        model: "openai/gpt-4o",
        providers: {
          openrouter: { headers: { Authorization: `Bearer ${secret}` } },
          corp: { api: "openai-chat", baseUrl: `https://me:${secret}@llm.corp.example/v1?key=${secret}` },
        },
        toolSets: [
          { name: "gh", command: "gh-mcp", env: { GH_TOKEN: secret } },
          { name: "web", url: `https://bot:${secret}@mcp.example/mcp?token=${secret}&x=1` },
        ],
        trustedWorkspaces: [],
      }),
    );
    const loaded = loadConfig({
      home: dirs.home,
      cwd: dirs.workspace,
      flags: flagsToConfig({ maxToolCalls: 3 }),
      env: { OPENAI_API_KEY: secret },
    });
    loaded.warnings.push("example warning");
    const text = formatConfigCheck(loaded, { OPENAI_API_KEY: secret });
    const user = join(dirs.home, "config.json");
    expect(text).not.toContain(secret);
    expect(text).toContain(`  model = "openai/gpt-4o"  [${user}]`);
    expect(text).toContain("  executionBudget.maximumToolCalls = 3  [--max-tool-calls]");
    expect(text).toContain("  retry.maxRetries = 5  [default]");
    expect(text).toContain('  providers.openrouter.headers.Authorization = "(hidden)"');
    expect(text).toContain('"env":{"GH_TOKEN":"(hidden)"}');
    // Credentials written into a URL: its user part and query values.
    expect(text).toContain('providers.corp.baseUrl = "https://(hidden)@llm.corp.example/v1?key=(hidden)"');
    expect(text).toContain('"url":"https://(hidden)@mcp.example/mcp?token=(hidden)&x=(hidden)"');
    expect(text).toContain("  permissions.deny = []  [default]");
    expect(text).toContain("  openai: OPENAI_API_KEY is set");
    expect(text).toContain("  anthropic: ANTHROPIC_API_KEY is not set");
    expect(text).toContain("  ollama: no key needed");
    expect(text).toContain("Warnings:\n  example warning");
  });

  it("says when no model is set", () => {
    const loaded = loadConfig({ home: dirs.home, cwd: dirs.workspace, flags: {}, env: {} });
    const text = formatConfigCheck(loaded);
    expect(text).toContain("model = (not set");
    expect(text).toContain("Warnings: none");
  });
});
