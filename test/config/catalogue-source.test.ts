// The bundled catalogue from models.dev (R-PROV-16): current models of every provider, prices with
// long-context tiers, the edit tool, tern's own rules on top, config over it, and the one notice
// for a model it lacks.
import { describe, expect, it } from "vitest";
import { CATALOGUE, CATALOGUE_SOURCE, modelInfo } from "../../src/config/catalogue.js";

describe("the models.dev catalogue", () => {
  it("names its source and the date of its copy", () => {
    expect(CATALOGUE_SOURCE.source).toMatch(/models\.dev/);
    expect(CATALOGUE_SOURCE.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    "google/gemini-2.5-pro",
    "google/gemini-2.5-flash",
    "vertex/gemini-2.5-pro",
    "vertex/claude-sonnet-4-5@20250929",
    "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    "azure/gpt-5",
    "openai/gpt-5.1",
    "anthropic/claude-opus-4-5",
  ])("knows %s with a window, an output limit and prices", (id) => {
    const info = CATALOGUE[id];
    expect(info, id).toBeDefined();
    expect(info.contextWindow).toBeGreaterThan(100_000);
    expect(info.maxOutputTokens).toBeGreaterThan(4000);
    expect(info.pricing?.input).toBeGreaterThan(0);
  });

  it("keeps newer models than the hand-written catalogue had", () => {
    const newer = Object.keys(CATALOGUE).filter((id) =>
      /^(openai\/gpt-5\.[2-9]|anthropic\/claude-(opus|sonnet)-4-[6-9])/.test(id),
    );
    expect(newer.length).toBeGreaterThan(3);
  });

  it("carries Gemini's long-context price tier and Claude's cache prices", () => {
    expect(CATALOGUE["google/gemini-2.5-pro"].pricing?.tiers).toEqual([
      { above: 200000, input: 2.5, output: 15, cacheRead: 0.25 },
    ]);
    expect(CATALOGUE["bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0"].pricing).toMatchObject({
      cacheRead: 0.3,
      cacheWrite: 3.75,
    });
  });

  it("marks apply_patch for OpenAI's GPT-5 and codex models only", () => {
    expect(CATALOGUE["openai/gpt-5"].editTool).toBe("apply_patch");
    expect(CATALOGUE["openai/gpt-5.1-codex"].editTool).toBe("apply_patch");
    expect(CATALOGUE["azure/gpt-5"].editTool).toBe("apply_patch");
    expect(CATALOGUE["openai/gpt-4.1"].editTool).toBeUndefined();
    expect(CATALOGUE["anthropic/claude-sonnet-4-5"].editTool).toBeUndefined();
  });

  it("keeps tern's rules: OpenAI reasoning models on Responses, hosted search priced", () => {
    expect(CATALOGUE["openai/gpt-5"]).toMatchObject({ reasoning: true, api: "openai-responses" });
    expect(CATALOGUE["openai/gpt-5"].pricing?.webSearch).toBe(10);
    expect(CATALOGUE["openai/gpt-4.1"].api).toBeUndefined();
    expect(CATALOGUE["deepseek/deepseek-reasoner"].reasoning).toBeUndefined();
  });

  it("lets config win key by key and keeps the one notice for an unknown model", () => {
    const { info, notice } = modelInfo("google/gemini-2.5-pro", {
      contextWindow: 5000,
      editTool: "apply_patch",
    });
    expect(info.contextWindow).toBe(5000);
    expect(info.editTool).toBe("apply_patch");
    expect(notice).toBeUndefined();
    expect(modelInfo("google/gemini-9-imaginary", undefined).notice).toMatch(/is not in the catalogue/);
  });
});
