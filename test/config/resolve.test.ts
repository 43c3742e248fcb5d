import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { ConfigError } from "../../src/config/errors.js";
import { parseThinking } from "../../src/config/flags.js";
import { adHocKeyEnv, normalizeBaseUrl, resolveModel } from "../../src/config/resolve.js";
import type { Config } from "../../src/config/types.js";

const SECRET = "sk-test-SECRET-123";
const cfg = (patch: Partial<Config> = {}): Config => ({ ...defaultConfig(), ...patch });

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const msg = (e as Error).message;
    expect(msg).not.toContain("\n");
    expect(msg).not.toContain(SECRET);
    return msg;
  }
  throw new Error("expected a ConfigError");
}

describe("normalizeBaseUrl (R-PROV-0)", () => {
  it.each([
    ["http://host:8080", "http://host:8080/v1"],
    ["http://host:8080/", "http://host:8080/v1"],
    ["https://api.anthropic.com", "https://api.anthropic.com/v1"],
    ["https://api.anthropic.com/v1", "https://api.anthropic.com/v1"],
    ["https://api.anthropic.com/v1/", "https://api.anthropic.com/v1"],
    ["https://api.groq.com/openai/v1", "https://api.groq.com/openai/v1"],
    ["https://openrouter.ai/api/v1", "https://openrouter.ai/api/v1"],
    [
      "https://generativelanguage.googleapis.com/v1beta/openai/",
      "https://generativelanguage.googleapis.com/v1beta/openai",
    ],
    ["https://open.bigmodel.cn/api/paas/v4", "https://open.bigmodel.cn/api/paas/v4"],
    ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1"],
    ["http://proxy.local/llm", "http://proxy.local/llm/v1"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });

  it("rejects non-URLs naming where the URL came from", () => {
    expect(errorOf(() => normalizeBaseUrl("localhost:8080", "--base-url"))).toMatch(/^--base-url: /);
    expect(errorOf(() => normalizeBaseUrl("not a url", "--base-url"))).toContain(
      "--base-url: not a valid URL",
    );
  });
});

describe("resolveModel (R-CFG-3, R-CFG-4, §10)", () => {
  it("resolves a configured model with its key, endpoint and catalogue info", () => {
    const { model, notices } = resolveModel(cfg({ model: "openai/gpt-4.1" }), { OPENAI_API_KEY: SECRET });
    expect(model).toEqual({
      id: "openai/gpt-4.1",
      providerId: "openai",
      name: "gpt-4.1",
      endpoint: { api: "openai-chat", baseUrl: "https://api.openai.com/v1", apiKey: SECRET, headers: {} },
      info: {
        contextWindow: 1047576,
        maxOutputTokens: 32768,
        images: true,
        pricing: { input: 2, output: 8, cacheRead: 0.5 },
      },
      thinking: "off",
      hostedTools: [],
    });
    expect(notices).toEqual([]);
  });

  it("keeps slashes after the provider in the wire name", () => {
    const { model } = resolveModel(cfg({ model: "openrouter/anthropic/claude-sonnet-4.5" }), {
      OPENROUTER_API_KEY: SECRET,
    });
    expect(model.providerId).toBe("openrouter");
    expect(model.name).toBe("anthropic/claude-sonnet-4.5");
    expect(model.endpoint.baseUrl).toBe("https://openrouter.ai/api/v1");
  });

  it("rejects a model string that is not <provider>/<model>", () => {
    expect(errorOf(() => resolveModel(cfg({ model: "gpt-4o" }), {}))).toContain(
      'model "gpt-4o" is not "<provider>/<model>"',
    );
  });

  it("rejects an unknown provider and says how to fix it", () => {
    const msg = errorOf(() => resolveModel(cfg({ model: "local/qwen3" }), {}));
    expect(msg).toContain('unknown provider "local"');
    expect(msg).toContain("--base-url");
    expect(msg).toContain("providers.local");
  });

  it("a missing key names the variable and never leaks other values", () => {
    const msg = errorOf(() => resolveModel(cfg({ model: "openai/gpt-4o" }), { ANTHROPIC_API_KEY: SECRET }));
    expect(msg).toMatch(/^OPENAI_API_KEY is not set: export it, or use --base-url/);
    expect(errorOf(() => resolveModel(cfg({ model: "openai/gpt-4o" }), { OPENAI_API_KEY: "" }))).toContain(
      "OPENAI_API_KEY is not set",
    );
  });

  it("reads the key only from the variable named by apiKeyEnv", () => {
    const c = cfg({ model: "openai/gpt-4o" });
    c.providers.openai = { ...c.providers.openai, apiKeyEnv: "MY_OPENAI" };
    expect(errorOf(() => resolveModel(c, { OPENAI_API_KEY: SECRET }))).toContain("MY_OPENAI is not set");
    expect(resolveModel(c, { MY_OPENAI: SECRET }).model.endpoint.apiKey).toBe(SECRET);
  });

  it("local providers need no key", () => {
    const { model } = resolveModel(cfg({ model: "ollama/qwen3" }), {});
    expect(model.endpoint).toEqual({ api: "openai-chat", baseUrl: "http://localhost:11434/v1", headers: {} });
    expect(model.info.pricing).toEqual({ input: 0, output: 0 });
  });

  it("with no model, picks the default of the provider whose key is set, Anthropic first", () => {
    let r = resolveModel(cfg(), { OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: SECRET });
    expect(r.model.id).toBe("anthropic/claude-sonnet-4-5");
    expect(r.model.endpoint.api).toBe("anthropic-messages");
    expect(r.notices[0]).toContain("ANTHROPIC_API_KEY is set");
    expect(r.notices.join()).not.toContain(SECRET);
    r = resolveModel(cfg(), { OPENAI_API_KEY: SECRET });
    expect(r.model.id).toBe("openai/gpt-5");
    r = resolveModel(cfg(), { DEEPSEEK_API_KEY: SECRET });
    expect(r.model.id).toBe("deepseek/deepseek-chat");
  });

  it("with no model and no key, says in one line how to set a key or use a local server", () => {
    const msg = errorOf(() => resolveModel(cfg(), { PATH: "/bin" }));
    expect(msg).toContain("ANTHROPIC_API_KEY");
    expect(msg).toContain("--base-url");
  });

  it("--base-url with an unconfigured provider creates an ad-hoc openai-chat provider", () => {
    let r = resolveModel(cfg({ model: "local/qwen3" }), {}, { baseUrl: "http://localhost:8080/v1" });
    expect(r.model.endpoint).toEqual({
      api: "openai-chat",
      baseUrl: "http://localhost:8080/v1",
      headers: {},
    });
    expect(r.model.info).toEqual({ contextWindow: 128000, maxOutputTokens: 8192, images: false });
    expect(r.notices.some((n) => n.includes("local/qwen3 is not in the catalogue"))).toBe(true);

    r = resolveModel(
      cfg({ model: "my-box.lan/qwen3" }),
      { MY_BOX_LAN_API_KEY: SECRET },
      { baseUrl: "http://h:1" },
    );
    expect(r.model.endpoint.apiKey).toBe(SECRET);
    expect(r.model.endpoint.baseUrl).toBe("http://h:1/v1");
    expect(adHocKeyEnv("my-box.lan")).toBe("MY_BOX_LAN_API_KEY");
  });

  it("--base-url overrides a configured provider's baseUrl, and then a missing key is allowed", () => {
    const r = resolveModel(cfg({ model: "openai/gpt-4o" }), {}, { baseUrl: "http://127.0.0.1:9999" });
    expect(r.model.endpoint.baseUrl).toBe("http://127.0.0.1:9999/v1");
    expect(r.model.endpoint.apiKey).toBeUndefined();
    expect(errorOf(() => resolveModel(cfg(), {}, { baseUrl: "http://x" }))).toContain("--model");
  });

  it("honours OPENAI_BASE_URL / ANTHROPIC_BASE_URL for built-in providers unless config moved them", () => {
    const env = {
      ANTHROPIC_API_KEY: SECRET,
      ANTHROPIC_BASE_URL: "https://proxy.example.com/",
      OPENAI_BASE_URL: "http://o:1",
    };
    expect(resolveModel(cfg({ model: "anthropic/claude-haiku-4-5" }), env).model.endpoint.baseUrl).toBe(
      "https://proxy.example.com/v1",
    );
    const c = cfg({ model: "anthropic/claude-haiku-4-5" });
    c.providers.anthropic = { ...c.providers.anthropic, baseUrl: "https://configured.example.com/v1" };
    expect(resolveModel(c, env).model.endpoint.baseUrl).toBe("https://configured.example.com/v1");
    // Not honoured for other providers.
    expect(
      resolveModel(cfg({ model: "deepseek/deepseek-chat" }), { ...env, DEEPSEEK_API_KEY: "k" }).model.endpoint
        .baseUrl,
    ).toBe("https://api.deepseek.com/v1");
  });

  it("models.<id> overrides catalogue values key by key; unknown ids get a notice", () => {
    const c = cfg({
      model: "anthropic/claude-sonnet-4-5",
      models: { "anthropic/claude-sonnet-4-5": { maxOutputTokens: 1000, pricing: { input: 2, output: 10 } } },
    });
    const r = resolveModel(c, { ANTHROPIC_API_KEY: SECRET });
    expect(r.model.info).toEqual({
      contextWindow: 200000,
      maxOutputTokens: 1000,
      images: true,
      pricing: { input: 2, output: 10, cacheRead: 0.3, cacheWrite: 3.75, webSearch: 10 },
      reasoning: true,
    });
    expect(r.notices).toEqual([]);

    const u = resolveModel(cfg({ model: "openai/gpt-9" }), { OPENAI_API_KEY: SECRET });
    expect(u.model.info.pricing).toBeUndefined();
    expect(u.notices).toEqual([
      'model openai/gpt-9 is not in the catalogue: assuming a 128000-token context window, 8192 max output tokens, no image input, unknown price (set models["openai/gpt-9"] in config.json to change this)',
    ]);
    const k = resolveModel(
      cfg({ model: "openai/gpt-9", models: { "openai/gpt-9": { contextWindow: 50000 } } }),
      {
        OPENAI_API_KEY: SECRET,
      },
    );
    expect(k.model.info.contextWindow).toBe(50000);
    expect(k.notices).toEqual([]);
  });

  it("passes provider headers through", () => {
    const c = cfg({ model: "openrouter/openai/gpt-5" });
    c.providers.openrouter = { ...c.providers.openrouter, headers: { "X-Title": "tern" } };
    expect(resolveModel(c, { OPENROUTER_API_KEY: SECRET }).model.endpoint.headers).toEqual({
      "X-Title": "tern",
    });
  });
});

describe("per-model wire compat (R-PROV-1, R-PROV-3)", () => {
  it("echoes reasoning by default for the deepseek provider only, and config wins", () => {
    const config = defaultConfig();
    const env = { DEEPSEEK_API_KEY: "k", OPENAI_API_KEY: "k" };
    const deepseek = resolveModel({ ...config, model: "deepseek/deepseek-reasoner" }, env).model;
    expect(deepseek.endpoint.compat).toEqual({ echoReasoning: true });
    const openai = resolveModel({ ...config, model: "openai/gpt-4.1" }, env).model;
    expect(openai.endpoint.compat).toBeUndefined();
    config.models["deepseek/deepseek-chat"] = {
      compat: { echoReasoning: false, maxTokensField: "max_tokens" },
    };
    const off = resolveModel({ ...config, model: "deepseek/deepseek-chat" }, env).model;
    expect(off.endpoint.compat).toEqual({ echoReasoning: false, maxTokensField: "max_tokens" });
  });
});

describe("protocol per model and thinking level (R-PROV-9, R-PROV-10)", () => {
  const env = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" };
  it("the built-in openai provider speaks Responses to catalogue GPT-5 / o-series, chat to others", () => {
    const config = defaultConfig();
    for (const id of ["openai/gpt-5", "openai/gpt-5-mini", "openai/o3", "openai/o4-mini"])
      expect(resolveModel({ ...config, model: id }, env).model.endpoint.api).toBe("openai-responses");
    expect(resolveModel({ ...config, model: "openai/gpt-4.1" }, env).model.endpoint.api).toBe("openai-chat");
    expect(resolveModel({ ...config, model: "openai/gpt-9" }, env).model.endpoint.api).toBe("openai-chat");
  });

  it("api on a model entry wins over the provider's; a provider's own api wins over the catalogue", () => {
    const config = defaultConfig();
    config.models["openai/gpt-5"] = { api: "openai-chat" };
    config.models["openai/gpt-4.1"] = { api: "openai-responses" };
    expect(resolveModel({ ...config, model: "openai/gpt-5" }, env).model.endpoint.api).toBe("openai-chat");
    expect(resolveModel({ ...config, model: "openai/gpt-4.1" }, env).model.endpoint.api).toBe(
      "openai-responses",
    );
    const changed = defaultConfig();
    changed.providers.openai = { ...changed.providers.openai, api: "anthropic-messages" };
    expect(resolveModel({ ...changed, model: "openai/o3" }, env).model.endpoint.api).toBe(
      "anthropic-messages",
    );
    changed.models["openai/o3"] = { api: "openai-responses" };
    expect(resolveModel({ ...changed, model: "openai/o3" }, env).model.endpoint.api).toBe("openai-responses");
  });

  it("thinking: --thinking over models.<id>.thinking over the catalogue default (medium for reasoning models)", () => {
    const config = defaultConfig();
    expect(resolveModel({ ...config, model: "anthropic/claude-sonnet-4-5" }, env).model.thinking).toBe(
      "medium",
    );
    expect(resolveModel({ ...config, model: "openai/gpt-4.1" }, env).model.thinking).toBe("off");
    config.models["anthropic/claude-sonnet-4-5"] = { thinking: "low", hostedTools: ["web_search"] };
    const low = resolveModel({ ...config, model: "anthropic/claude-sonnet-4-5" }, env).model;
    expect(low.thinking).toBe("low");
    expect(low.hostedTools).toEqual(["web_search"]);
    expect(
      resolveModel({ ...config, thinking: "high", model: "anthropic/claude-sonnet-4-5" }, env).model.thinking,
    ).toBe("high");
  });

  it("Responses asks for encrypted reasoning except for models known not to reason", () => {
    const config = defaultConfig();
    config.models["openai/gpt-4.1"] = { api: "openai-responses" };
    config.models["openai/my-ft"] = { api: "openai-responses" };
    const known = resolveModel({ ...config, model: "openai/gpt-4.1" }, env).model.endpoint.compat;
    expect(known).toEqual({ encryptedReasoning: false });
    expect(resolveModel({ ...config, model: "openai/gpt-5" }, env).model.endpoint.compat).toEqual({
      reasoningEffort: true,
    });
    expect(resolveModel({ ...config, model: "openai/my-ft" }, env).model.endpoint.compat).toBeUndefined();
  });

  it("chat sends reasoning_effort only for models the catalogue marks as reasoning", () => {
    const config = defaultConfig();
    const env2 = { OPENROUTER_API_KEY: "k", OPENAI_API_KEY: "k" };
    expect(resolveModel({ ...config, model: "openrouter/openai/gpt-5" }, env2).model.endpoint.compat).toEqual(
      {
        reasoningEffort: true,
      },
    );
    expect(resolveModel({ ...config, model: "openai/gpt-4.1" }, env2).model.endpoint.compat).toBeUndefined();
  });

  it("a bad thinking level is one line naming the flag", () => {
    expect(() => parseThinking("max")).toThrow("--thinking: must be off, low, medium, high, got 'max'");
    expect(parseThinking("HIGH")).toBe("high");
  });
});
