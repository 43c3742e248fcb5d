// Well-known models: context window, max output, image input, USD per million tokens.
// Prices are list prices at the time of writing; `models.<id>` in config overrides any of them.
import { UNKNOWN_MODEL_INFO } from "./defaults.js";
import type { ModelInfo } from "./types.js";
import type { Pricing } from "../vocab/cost.js";

const m = (contextWindow: number, maxOutputTokens: number, images: boolean, pricing?: Pricing): ModelInfo =>
  pricing ? { contextWindow, maxOutputTokens, images, pricing } : { contextWindow, maxOutputTokens, images };

/** USD per 1,000 searches of the providers' hosted web search (R-PROV-11). */
const WEB_SEARCH_PRICE = 10;

/**
 * OpenAI reasoning models (GPT-5 family, o-series): reasoning, spoken to over the Responses API so
 * their reasoning survives between rounds (R-PROV-9).
 */
const openaiReasoning = (
  contextWindow: number,
  maxOutputTokens: number,
  images: boolean,
  pricing: Pricing,
): ModelInfo => ({
  ...m(contextWindow, maxOutputTokens, images, { ...pricing, webSearch: WEB_SEARCH_PRICE }),
  reasoning: true,
  api: "openai-responses",
});

/** Claude models with extended thinking. */
const claudeReasoning = (contextWindow: number, maxOutputTokens: number, pricing: Pricing): ModelInfo => ({
  ...m(contextWindow, maxOutputTokens, true, { ...pricing, webSearch: WEB_SEARCH_PRICE }),
  reasoning: true,
});

const SONNET = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const OPUS_4 = { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 };
const GPT_5 = { input: 1.25, output: 10, cacheRead: 0.125 };

export const CATALOGUE: Readonly<Record<string, ModelInfo>> = {
  "openai/gpt-5": openaiReasoning(400000, 128000, true, GPT_5),
  "openai/gpt-5.1": openaiReasoning(400000, 128000, true, GPT_5),
  "openai/gpt-5-codex": openaiReasoning(400000, 128000, true, GPT_5),
  "openai/gpt-5.1-codex": openaiReasoning(400000, 128000, true, GPT_5),
  "openai/gpt-5-mini": openaiReasoning(400000, 128000, true, { input: 0.25, output: 2, cacheRead: 0.025 }),
  "openai/gpt-5-nano": openaiReasoning(400000, 128000, true, { input: 0.05, output: 0.4, cacheRead: 0.005 }),
  "openai/gpt-5-pro": openaiReasoning(400000, 272000, true, { input: 15, output: 120 }),
  "openai/o3": openaiReasoning(200000, 100000, true, { input: 2, output: 8, cacheRead: 0.5 }),
  "openai/o3-pro": openaiReasoning(200000, 100000, true, { input: 20, output: 80 }),
  "openai/o3-mini": openaiReasoning(200000, 100000, false, { input: 1.1, output: 4.4, cacheRead: 0.55 }),
  "openai/o4-mini": openaiReasoning(200000, 100000, true, { input: 1.1, output: 4.4, cacheRead: 0.275 }),
  "openai/gpt-4.1": m(1047576, 32768, true, { input: 2, output: 8, cacheRead: 0.5 }),
  "openai/gpt-4.1-mini": m(1047576, 32768, true, { input: 0.4, output: 1.6, cacheRead: 0.1 }),
  "openai/gpt-4.1-nano": m(1047576, 32768, true, { input: 0.1, output: 0.4, cacheRead: 0.025 }),
  "openai/gpt-4o": m(128000, 16384, true, { input: 2.5, output: 10, cacheRead: 1.25 }),
  "openai/gpt-4o-mini": m(128000, 16384, true, { input: 0.15, output: 0.6, cacheRead: 0.075 }),
  "anthropic/claude-opus-4-5": claudeReasoning(200000, 64000, {
    input: 5,
    output: 25,
    cacheRead: 0.5,
    cacheWrite: 6.25,
  }),
  "anthropic/claude-sonnet-4-5": claudeReasoning(200000, 64000, SONNET),
  "anthropic/claude-haiku-4-5": claudeReasoning(200000, 64000, {
    input: 1,
    output: 5,
    cacheRead: 0.1,
    cacheWrite: 1.25,
  }),
  "anthropic/claude-opus-4-1": claudeReasoning(200000, 32000, OPUS_4),
  "anthropic/claude-opus-4-0": claudeReasoning(200000, 32000, OPUS_4),
  "anthropic/claude-sonnet-4-0": claudeReasoning(200000, 64000, SONNET),
  "anthropic/claude-3-7-sonnet-latest": claudeReasoning(200000, 64000, SONNET),
  "anthropic/claude-3-5-haiku-latest": m(200000, 8192, true, {
    input: 0.8,
    output: 4,
    cacheRead: 0.08,
    cacheWrite: 1,
  }),
  "deepseek/deepseek-chat": m(128000, 8192, false, { input: 0.28, output: 0.42, cacheRead: 0.028 }),
  // Reasoning, but it takes no reasoning_effort: it always thinks.
  "deepseek/deepseek-reasoner": m(128000, 64000, false, { input: 0.28, output: 0.42, cacheRead: 0.028 }),
  "openrouter/anthropic/claude-sonnet-4.5": m(1000000, 64000, true, SONNET),
  "openrouter/openai/gpt-5": { ...m(400000, 128000, true, GPT_5), reasoning: true },
  "openrouter/google/gemini-2.5-pro": m(1048576, 65536, true, { input: 1.25, output: 10, cacheRead: 0.31 }),
  "openrouter/deepseek/deepseek-chat-v3.1": m(163840, 32768, false, { input: 0.27, output: 1 }),
  "groq/llama-3.3-70b-versatile": m(131072, 32768, false, { input: 0.59, output: 0.79 }),
  "groq/openai/gpt-oss-120b": m(131072, 65536, false, { input: 0.15, output: 0.75 }),
  "groq/moonshotai/kimi-k2-instruct-0905": m(262144, 16384, false, { input: 1, output: 3 }),
  // Local models cost nothing: a known price of 0, unlike an unknown model's unknown price.
  "ollama/qwen3": m(40960, 8192, false, { input: 0, output: 0 }),
  "ollama/llama3.2": m(131072, 8192, false, { input: 0, output: 0 }),
  "ollama/gpt-oss:20b": m(131072, 32768, false, { input: 0, output: 0 }),
};

/** The model picked when only this provider's key is in the environment (R-CFG-4). */
export const DEFAULT_MODEL_BY_PROVIDER: Readonly<Record<string, string>> = {
  anthropic: "anthropic/claude-sonnet-4-5",
  openai: "openai/gpt-5",
  openrouter: "openrouter/anthropic/claude-sonnet-4.5",
  deepseek: "deepseek/deepseek-chat",
  groq: "groq/openai/gpt-oss-120b",
  ollama: "ollama/qwen3",
};

/**
 * The catalogue id a cloud route's model is sold under when the route has no entry of its own: an
 * Azure deployment named after its OpenAI model, a Vertex Claude (`claude-sonnet-4-5@20250929`) or
 * Gemini model (R-PROV-13/15).
 */
export function catalogueAlias(providerId: string, name: string): string | undefined {
  if (providerId === "azure") return `openai/${name}`;
  if (providerId === "vertex") {
    return name.startsWith("claude-") ? `anthropic/${name.replace(/@.*$/, "")}` : `google/${name}`;
  }
  return undefined;
}

/**
 * Catalogue entry with config overrides applied key by key (pricing too). A model the catalogue
 * does not know gets the conservative fallback and a notice, unless config gives its window.
 */
export function modelInfo(
  id: string,
  overrides: Partial<ModelInfo> | undefined,
  alias?: string,
): { info: ModelInfo; notice?: string } {
  const known = CATALOGUE[id] ?? (alias ? CATALOGUE[alias] : undefined);
  const base: ModelInfo = known ? structuredClone(known) : { ...UNKNOWN_MODEL_INFO };
  const info: ModelInfo = { ...base };
  if (overrides) {
    for (const key of [
      "contextWindow",
      "maxOutputTokens",
      "images",
      "reasoning",
      "api",
      "thinking",
      "hostedTools",
    ] as const) {
      if (overrides[key] !== undefined) (info as any)[key] = overrides[key];
    }
    if (overrides.pricing) info.pricing = { ...base.pricing, ...overrides.pricing } as Pricing;
  }
  if (known || overrides?.contextWindow !== undefined) return { info };
  const price = info.pricing ? "" : ", unknown price";
  return {
    info,
    notice:
      `model ${id} is not in the catalogue: assuming a ${info.contextWindow}-token context window, ` +
      `${info.maxOutputTokens} max output tokens, ${info.images ? "" : "no "}image input${price} ` +
      `(set models["${id}"] in config.json to change this)`,
  };
}
