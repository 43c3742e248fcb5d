// Cost of one usage report (R-PROV-6). An unknown price makes the cost unknown (null), never 0.
import type { Usage } from "./usage.js";

/** USD per million tokens. */
export interface Pricing {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** USD per 1,000 provider-run web searches (R-PROV-11). */
  webSearch?: number;
  /**
   * Long-context prices (R-PROV-16): a request whose prompt is over `above` tokens is billed at
   * the highest such tier's prices (Gemini and GPT-5.4 above 200k / 272k tokens), each price it
   * names replacing the base one.
   */
  tiers?: PriceTier[];
}

export interface PriceTier {
  above: number;
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** The prices that apply to a request of `prompt` tokens. */
export function pricesFor(pricing: Pricing, prompt: number): Pricing {
  let tier: PriceTier | undefined;
  for (const t of pricing.tiers ?? []) if (prompt > t.above && (!tier || t.above > tier.above)) tier = t;
  if (!tier) return pricing;
  const { above: _above, ...prices } = tier;
  return { ...pricing, ...prices };
}

/** USD. `prompt` includes cached tokens, so the cached parts are taken out of the input price. */
export function computeCost(usage: Usage, basePricing?: Pricing): number | null {
  if (!basePricing) return null;
  const pricing = pricesFor(basePricing, usage.prompt);
  const uncached = Math.max(0, usage.prompt - usage.cacheRead - usage.cacheWrite);
  const micro =
    uncached * pricing.input +
    usage.cacheRead * (pricing.cacheRead ?? pricing.input) +
    usage.cacheWrite * (pricing.cacheWrite ?? pricing.input) +
    usage.completion * pricing.output;
  const searches = usage.webSearches ?? 0;
  if (searches === 0) return micro / 1_000_000;
  // Provider-run searches are billed per use (R-PROV-11); no known price = unknown cost.
  if (pricing.webSearch === undefined) return null;
  return micro / 1_000_000 + (searches * pricing.webSearch) / 1000;
}

/** Sum of costs where any unknown part makes the total unknown. */
export function addCost(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

/**
 * USD with enough digits for cheap turns; an unknown price stays visibly unknown, never $0. Reports
 * spell it out; the UI's narrow status line passes `"$?"`.
 */
export function money(cost: number | null, unknown = "unknown"): string {
  return cost === null ? unknown : `$${cost.toFixed(4)}`;
}
