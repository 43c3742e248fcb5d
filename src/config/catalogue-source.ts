// The bundled model catalogue (R-PROV-16): models.dev's data for tern's built-in providers, trimmed
// by scripts/models-dev-catalogue.py into catalogue-data.json and read here with tern's own rules
// on top. Bundled, so start needs no network; `tern models` names its date.
import data from "./catalogue-data.json" with { type: "json" };
import type { ModelInfo } from "./types.js";
import type { Pricing } from "../vocab/cost.js";

/** USD per 1,000 searches of the providers' hosted web search (R-PROV-11). */
export const WEB_SEARCH_PRICE = 10;

interface SourceEntry {
  contextWindow: number;
  maxOutputTokens: number;
  images: boolean;
  reasoning?: boolean;
  pricing?: Pricing;
  editTool?: "apply_patch";
}

/** Where the catalogue comes from, and the date of that copy. */
export const CATALOGUE_SOURCE: Readonly<{ source: string; date: string; commit: string }> = {
  source: data.source,
  date: data.date,
  commit: data.commit,
};

/**
 * models.dev's entries as tern's ModelInfo, the parsed data itself (made once, on the start path:
 * copying 500-odd entries cost a run's start several ms): OpenAI's reasoning models speak the
 * Responses API so their reasoning survives between rounds (R-PROV-9); OpenAI's and Anthropic's
 * reasoning models carry the hosted web search price (R-PROV-11).
 */
export function sourceCatalogue(): Record<string, ModelInfo> {
  const models = data.models as Record<string, SourceEntry & ModelInfo>;
  for (const id in models) {
    const info = models[id];
    if (!info.reasoning) continue;
    const provider = id.slice(0, id.indexOf("/"));
    if (provider === "openai" || provider === "azure") info.api = "openai-responses";
    if (info.pricing && (provider === "openai" || provider === "anthropic"))
      info.pricing.webSearch = WEB_SEARCH_PRICE;
  }
  return models;
}
