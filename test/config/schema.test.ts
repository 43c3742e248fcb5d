import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { findJsonSyntaxError } from "../../src/config/json-position.js";
import { parseConfigText } from "../../src/config/file/parse-layer.js";

const L = ".tern/config.json";
function errorOf(config: unknown): string {
  const text = typeof config === "string" ? config : JSON.stringify(config);
  try {
    parseConfigText(text, L);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).not.toContain("\n");
    return (e as Error).message;
  }
  throw new Error(`expected an error for ${text}`);
}

describe("config schema (R-CFG-1)", () => {
  it("names file, key path and expectation for the budget example of the spec", () => {
    expect(errorOf({ executionBudget: { maximumModelCalls: 0 } })).toBe(
      `${L}: executionBudget.maximumModelCalls: must be a positive integer or null`,
    );
  });

  it.each([
    [
      { executionBudget: { maximumModelCalls: 1.5 } },
      "executionBudget.maximumModelCalls: must be a positive integer or null",
    ],
    [
      { executionBudget: { maximumToolCalls: -1 } },
      "executionBudget.maximumToolCalls: must be an integer >= 0 or null",
    ],
    [
      { executionBudget: { maximumDurationSeconds: 0 } },
      "executionBudget.maximumDurationSeconds: must be a number > 0",
    ],
    [
      { executionBudget: { maximumDurationSeconds: 2147484 } },
      "executionBudget.maximumDurationSeconds: must be",
    ],
    [{ executionBudget: "forever" }, 'executionBudget: must be "unlimited" or an object'],
    [{ executionBudget: { maxCalls: 3 } }, "executionBudget.maxCalls: unknown key"],
    [{ retry: { maxRetries: -1 } }, "retry.maxRetries: must be an integer >= 0"],
    [{ retry: { maxRetries: 1.5 } }, "retry.maxRetries: must be an integer >= 0"],
    [{ retry: { baseDelaySeconds: 0 } }, "retry.baseDelaySeconds: must be a number > 0"],
    [{ retry: { factor: -2 } }, "retry.factor: must be a number > 0"],
    [{ retry: { maxDelaySeconds: "30" } }, "retry.maxDelaySeconds: must be a number > 0"],
    [{ retry: { jitter: 1 } }, "retry.jitter: must be a number in [0, 1)"],
    [{ retry: { jitter: -0.1 } }, "retry.jitter: must be a number in [0, 1)"],
    [{ streamIdleTimeoutSeconds: 0 }, "streamIdleTimeoutSeconds: must be a number > 0 and <= 2147483"],
    [{ streamIdleTimeoutSeconds: 2147484 }, "streamIdleTimeoutSeconds: must be a number > 0 and <= 2147483"],
    [{ bashTimeoutSeconds: 0 }, "bashTimeoutSeconds: must be a positive integer <= 2147483"],
    [{ bashTimeoutSeconds: 2.5 }, "bashTimeoutSeconds: must be a positive integer"],
    [{ bashTimeoutSeconds: "forever" }, "bashTimeoutSeconds: must be a positive integer"],
    [{ toolSets: [{ name: "Bad Name", command: "x" }] }, "toolSets[0].name: must match [a-z0-9_-]+"],
    [{ toolSets: [{ name: "a" }] }, "toolSets[0].command: required"],
    [
      {
        toolSets: [
          { name: "a", command: "x" },
          { name: "a", command: "y" },
        ],
      },
      "toolSets[1].name: duplicate tool set name",
    ],
    [{ toolSets: [{ name: "a", command: "x", args: "y" }] }, "toolSets[0].args: must be an array"],
    [
      { toolSets: [{ name: "a", command: "x", timeoutSeconds: 0 }] },
      "toolSets[0].timeoutSeconds: must be a number > 0",
    ],
    [{ autoCompactThreshold: 1 }, "autoCompactThreshold: must be a number in [0, 1)"],
    [{ maxTruncationContinues: -1 }, "maxTruncationContinues: must be an integer >= 0"],
    [{ trustedWorkspaces: ["relative/path"] }, "trustedWorkspaces[0]: must be an absolute path"],
    [{ parallelTools: "yes" }, "parallelTools: must be true or false"],
    [{ permissions: { mode: "always" } }, 'permissions.mode: must be "ask", "auto-edit", "yolo" or "plan"'],
    [{ permissions: { allow: "bash(*)" } }, "permissions.allow: must be an array"],
    [{ permissions: { deny: [1] } }, "permissions.deny[0]: must be a string"],
    [
      { providers: { x: { api: "grpc" } } },
      'providers.x.api: must be "openai-chat", "openai-responses", "anthropic-messages", "google-gemini" or "bedrock-converse"',
    ],
    [{ providers: { x: { baseUrl: "ftp://a" } } }, "providers.x.baseUrl: must be an http(s) URL"],
    [{ providers: { x: { apiKeyEnv: "sk-123 abc" } } }, "providers.x.apiKeyEnv: must be the NAME"],
    [{ providers: { x: { headers: { a: 1 } } } }, "providers.x.headers.a: must be a string"],
    [{ providers: { x: { baseURL: "http://a" } } }, "providers.x.baseURL: unknown key"],
    [{ models: { gpt: {} } }, 'models.gpt: key must be "<provider>/<model>"'],
    [
      { models: { "openai/gpt-4.1": { contextWindow: 0 } } },
      'models["openai/gpt-4.1"].contextWindow: must be a positive',
    ],
    [{ models: { "a/b": { pricing: { input: 1 } } } }, 'models["a/b"].pricing.output: required'],
    [
      { models: { "a/b": { pricing: { input: -1, output: 1 } } } },
      'models["a/b"].pricing.input: must be a number >= 0',
    ],
    [{ models: { "a/b": { images: "no" } } }, 'models["a/b"].images: must be true or false'],
    [{ model: "gpt-4o" }, 'model: must be "<provider>/<model>"'],
    [{ modle: "openai/gpt-4o" }, "modle: unknown key"],
  ])("%j → %s", (config, expected) => {
    expect(errorOf(config)).toContain(`${L}: ${expected}`);
  });

  it("accepts the valid forms and normalizes bashTimeoutSeconds 'unlimited' to null", () => {
    const layer = parseConfigText(
      JSON.stringify({
        model: "openrouter/anthropic/claude-sonnet-4.5",
        executionBudget: { maximumModelCalls: null, maximumToolCalls: 0, maximumDurationSeconds: 2147483 },
        bashTimeoutSeconds: "unlimited",
        toolSets: [{ name: "git-tools_1", command: "node" }],
        autoCompactThreshold: 0,
        retry: { jitter: 0, maxRetries: 0 },
      }),
      L,
    );
    expect(layer.bashTimeoutSeconds).toBeNull();
    expect(layer.toolSets).toEqual([
      {
        name: "git-tools_1",
        command: "node",
        args: [],
        env: {},
        timeoutSeconds: 120,
        startTimeoutSeconds: 30,
      },
    ]);
    expect(layer.executionBudget).toEqual({
      maximumModelCalls: null,
      maximumToolCalls: 0,
      maximumDurationSeconds: 2147483,
    });
    expect(parseConfigText('{"executionBudget":"unlimited","bashTimeoutSeconds":null}', L)).toEqual({
      executionBudget: "unlimited",
      bashTimeoutSeconds: null,
    });
  });

  it("reports invalid JSON with file, line and column", () => {
    expect(errorOf('{\n  "model": "a/b",\n  "parallelTools": tru\n}')).toBe(
      `${L}:3:20: invalid JSON: unexpected "t"`,
    );
    expect(errorOf('{\n  "a": 1,\n}')).toBe(`${L}:3:1: invalid JSON: trailing comma`);
    expect(errorOf('{"a": 1')).toMatch(
      /^\.tern\/config\.json:1:8: invalid JSON: expected "," or "}", unexpected end/,
    );
    expect(errorOf("")).toBe(`${L}: empty file (expected a JSON object)`);
    expect(errorOf("[1]")).toBe(`${L}: must be a JSON object`);
  });

  it("locates errors the same way JSON.parse rejects them, and accepts what it accepts", () => {
    const valid = ['{"a":[1,2.5e3,-0,{"b":"\\u00e9\\n"}],"c":null,"d":true}', "  [ ]  ", '"x"'];
    for (const text of valid) expect(findJsonSyntaxError(text)).toBeNull();
    const invalid = ["{'a':1}", '{"a":01}', '{"a":"\\x"}', "[1,]", "{} x", '{"a" 1}'];
    for (const text of invalid) {
      expect(() => JSON.parse(text)).toThrow();
      expect(findJsonSyntaxError(text)).not.toBeNull();
    }
  });
});

describe("a layer validates as a whole however few keys it sets", () => {
  it("names a bad known key before an unknown one, whatever their order in the file", () => {
    expect(() => parseConfigText('{"zzz": 1, "retry": {"maxRetries": -1}}', "f.json")).toThrow(
      "f.json: retry.maxRetries: must be an integer >= 0",
    );
    expect(() => parseConfigText('{"zzz": 1, "model": "a/b"}', "f.json")).toThrow("f.json: zzz: unknown key");
    expect(() => parseConfigText('{"permissions": {"mode": "x"}, "model": 3}', "f.json")).toThrow(
      'f.json: model: must be "<provider>/<model>"',
    );
  });

  it("gives the same layer for the same keys set alone or together", () => {
    const alone = parseConfigText('{"toolSets": [{"name": "a", "command": "x"}]}', "f.json");
    const together = parseConfigText(
      '{"model": "a/b", "toolSets": [{"name": "a", "command": "x"}], "bashTimeoutSeconds": "unlimited"}',
      "f.json",
    );
    expect(together.toolSets).toEqual(alone.toolSets);
    expect(together).toEqual({ ...alone, model: "a/b", bashTimeoutSeconds: null });
  });
});
