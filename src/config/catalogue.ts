// The model catalogue: context window, max output, image input, reasoning, USD per million tokens
// and the edit tool, from models.dev's bundled data (catalogue-source.ts, R-PROV-16) with tern's
// own corrections on top; `models.<id>` in config overrides any of them.
import { CATALOGUE_SOURCE, sourceCatalogue } from "./catalogue-source.js";
import { UNKNOWN_MODEL_INFO } from "./defaults.js";
import type { ModelInfo } from "./types.js";
import type { Pricing } from "../vocab/cost.js";

const m = (contextWindow: number, maxOutputTokens: number, images: boolean, pricing?: Pricing): ModelInfo =>
  pricing ? { contextWindow, maxOutputTokens, images, pricing } : { contextWindow, maxOutputTokens, images };

const SONNET = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

const SOURCE = sourceCatalogue();

/** What tern knows beyond models.dev: aliases it lacks, local models, and corrections. */
const TERN_ENTRIES: Readonly<Record<string, ModelInfo>> = {
  "anthropic/claude-3-7-sonnet-latest": { ...m(200000, 64000, true, SONNET), reasoning: true },
  "anthropic/claude-3-5-haiku-latest": m(200000, 8192, true, {
    input: 0.8,
    output: 4,
    cacheRead: 0.08,
    cacheWrite: 1,
  }),
  // Reasoning, but it takes no reasoning_effort: it always thinks.
  "deepseek/deepseek-reasoner": withoutReasoning(
    SOURCE["deepseek/deepseek-reasoner"] ?? m(128000, 8192, false),
  ),
  // Local models cost nothing: a known price of 0, unlike an unknown model's unknown price.
  "ollama/qwen3": m(40960, 8192, false, { input: 0, output: 0 }),
  "ollama/llama3.2": m(131072, 8192, false, { input: 0, output: 0 }),
  "ollama/gpt-oss:20b": m(131072, 32768, false, { input: 0, output: 0 }),
};

function withoutReasoning(info: ModelInfo): ModelInfo {
  const { reasoning: _always, ...rest } = info;
  return rest;
}

/** models.dev's entries with tern's over them (assigned into the parsed data: no copy of it). */
export const CATALOGUE: Readonly<Record<string, ModelInfo>> = Object.assign(SOURCE, TERN_ENTRIES);

export { CATALOGUE_SOURCE };

/** The model picked when only this provider's key is in the environment (R-CFG-4). */
export const DEFAULT_MODEL_BY_PROVIDER: Readonly<Record<string, string>> = {
  anthropic: "anthropic/claude-sonnet-4-5",
  openai: "openai/gpt-5",
  openrouter: "openrouter/anthropic/claude-sonnet-4.5",
  deepseek: "deepseek/deepseek-chat",
  groq: "groq/openai/gpt-oss-120b",
  ollama: "ollama/qwen3",
  google: "google/gemini-2.5-pro",
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
      "editTool",
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
