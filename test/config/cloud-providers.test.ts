// Where google/, vertex/, bedrock/ and azure/ requests go and how they authenticate, from the
// vendors' own environment variables, config and --base-url (R-PROV-12..15).
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { ConfigError } from "../../src/config/errors.js";
import { resolveModel } from "../../src/config/resolve.js";
import type { Config } from "../../src/config/types.js";

const cfg = (model: string, patch: Partial<Config> = {}): Config => ({ ...defaultConfig(), model, ...patch });
const resolve = (model: string, env: NodeJS.ProcessEnv, opts: { baseUrl?: string } = {}, patch = {}) =>
  resolveModel(cfg(model, patch), env, opts).model;

describe("google/<model> (R-PROV-12)", () => {
  it("takes GEMINI_API_KEY, else GOOGLE_API_KEY, into x-goog-api-key", () => {
    const model = resolve("google/gemini-2.5-pro", { GOOGLE_API_KEY: "g-key-123456" });
    expect(model.endpoint).toMatchObject({
      api: "google-gemini",
      baseUrl: "https://generativelanguage.googleapis.com/v1beta",
      apiKey: "g-key-123456",
      auth: { kind: "key-header", header: "x-goog-api-key" },
    });
    expect(resolve("google/x", { GEMINI_API_KEY: "a", GOOGLE_API_KEY: "b" }).endpoint.apiKey).toBe("a");
  });

  it("is picked when GEMINI_API_KEY is the only key set", () => {
    const { model, notices } = resolveModel(defaultConfig(), { GEMINI_API_KEY: "k" });
    expect(model.id).toBe("google/gemini-2.5-pro");
    expect(notices[0]).toContain("GEMINI_API_KEY is set");
  });

  it("says which key is missing", () => {
    expect(() => resolve("google/gemini-2.5-pro", {})).toThrow(ConfigError);
    expect(() => resolve("google/gemini-2.5-pro", {})).toThrow(/GEMINI_API_KEY is not set/);
  });

  it("moves the base URL by --base-url, then config, then GOOGLE_GEMINI_BASE_URL", () => {
    const env = { GEMINI_API_KEY: "k", GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:9/" };
    expect(resolve("google/m", env).endpoint.baseUrl).toBe("http://127.0.0.1:9/v1beta");
    const providers = { ...defaultConfig().providers };
    providers.google = { ...providers.google, baseUrl: "http://127.0.0.1:8/v1alpha" };
    expect(resolve("google/m", env, {}, { providers }).endpoint.baseUrl).toBe("http://127.0.0.1:8/v1alpha");
    expect(resolve("google/m", env, { baseUrl: "http://127.0.0.1:7" }, { providers }).endpoint.baseUrl).toBe(
      "http://127.0.0.1:7/v1beta",
    );
  });
});

describe("vertex/<model> (R-PROV-13)", () => {
  it("routes Gemini models to publishers/google with ADC", () => {
    const model = resolve("vertex/gemini-2.5-pro", {
      GOOGLE_CLOUD_PROJECT: "proj",
      GOOGLE_CLOUD_LOCATION: "us-east5",
    });
    expect(model.endpoint).toMatchObject({
      api: "google-gemini",
      baseUrl:
        "https://us-east5-aiplatform.googleapis.com/v1/projects/proj/locations/us-east5/publishers/google",
      auth: { kind: "google-adc" },
    });
    expect(model.endpoint.apiKey).toBeUndefined();
  });

  it("routes Claude models to publishers/anthropic on the Messages wire, Claude Code's variables too", () => {
    const model = resolve("vertex/claude-sonnet-4-5@20250929", {
      ANTHROPIC_VERTEX_PROJECT_ID: "p2",
      CLOUD_ML_REGION: "global",
    });
    expect(model.endpoint).toMatchObject({
      api: "anthropic-messages",
      vertexAnthropic: true,
      baseUrl: "https://aiplatform.googleapis.com/v1/projects/p2/locations/global/publishers/anthropic",
    });
    expect(model.info.contextWindow).toBe(200000);
  });

  it("needs a project", () => {
    expect(() => resolve("vertex/gemini-2.5-pro", {})).toThrow(/GOOGLE_CLOUD_PROJECT/);
  });
});

describe("bedrock/<modelId> (R-PROV-14)", () => {
  it("signs with SigV4 in the region, endpoint from the standard variables", () => {
    const id = "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    expect(resolve(id, { AWS_REGION: "eu-west-1" }).endpoint).toMatchObject({
      api: "bedrock-converse",
      baseUrl: "https://bedrock-runtime.eu-west-1.amazonaws.com",
      auth: { kind: "aws-sigv4", region: "eu-west-1" },
    });
    const env = { AWS_DEFAULT_REGION: "us-west-2", AWS_ENDPOINT_URL: "http://127.0.0.1:5" };
    expect(resolve(id, env).endpoint.baseUrl).toBe("http://127.0.0.1:5");
    expect(
      resolve(id, { ...env, AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "http://127.0.0.1:6" }).endpoint.baseUrl,
    ).toBe("http://127.0.0.1:6");
  });

  it("takes a Bedrock API key instead of SigV4", () => {
    const endpoint = resolve("bedrock/amazon.nova-pro-v1:0", {
      AWS_REGION: "us-east-1",
      AWS_BEARER_TOKEN_BEDROCK: "bedrock-api-key-abc",
    }).endpoint;
    expect(endpoint.apiKey).toBe("bedrock-api-key-abc");
    expect(endpoint.auth).toBeUndefined();
  });

  it("needs a region", () => {
    expect(() => resolve("bedrock/amazon.nova-pro-v1:0", {})).toThrow(/AWS_REGION/);
  });
});

describe("azure/<deployment> (R-PROV-15)", () => {
  it("goes to {AZURE_OPENAI_ENDPOINT}/openai/v1 with api-key, Responses for a GPT-5 deployment", () => {
    const env = {
      AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com/",
      AZURE_OPENAI_API_KEY: "az-key-1234",
    };
    expect(resolve("azure/gpt-5", env).endpoint).toMatchObject({
      api: "openai-responses",
      baseUrl: "https://res.openai.azure.com/openai/v1",
      apiKey: "az-key-1234",
      auth: { kind: "key-header", header: "api-key" },
    });
    expect(resolve("azure/my-gpt4o", env).endpoint.api).toBe("openai-chat");
  });

  it("needs the endpoint and the key", () => {
    expect(() => resolve("azure/gpt-5", { AZURE_OPENAI_API_KEY: "k" })).toThrow(/AZURE_OPENAI_ENDPOINT/);
    expect(() => resolve("azure/gpt-5", { AZURE_OPENAI_ENDPOINT: "https://r" })).toThrow(
      /AZURE_OPENAI_API_KEY/,
    );
  });
});
