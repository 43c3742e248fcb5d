import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/config/catalogue.js";
import { addCost, computeCost } from "../../src/vocab/cost.js";
import { addUsage, billedInput, emptyUsage } from "../../src/vocab/usage.js";

describe("pricing (R-PROV-6)", () => {
  it("charges uncached input, cache reads and writes at their own prices, per million", () => {
    const usage = { prompt: 1_000_000, completion: 100_000, cacheRead: 600_000, cacheWrite: 100_000 };
    const pricing = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    // 300k × 3 + 600k × 0.3 + 100k × 3.75 + 100k × 15 = 0.9 + 0.18 + 0.375 + 1.5
    expect(computeCost(usage, pricing)).toBeCloseTo(2.955, 10);
  });

  it("uses the input price where no cache price is given", () => {
    const usage = { prompt: 2_000_000, completion: 0, cacheRead: 1_000_000, cacheWrite: 500_000 };
    expect(computeCost(usage, { input: 2, output: 8 })).toBeCloseTo(4, 10);
    expect(computeCost(usage, { input: 2, output: 8, cacheRead: 0.5 })).toBeCloseTo(2.5, 10);
  });

  it("an unknown price gives null, never 0; a known zero price gives 0", () => {
    const usage = { prompt: 10, completion: 10, cacheRead: 0, cacheWrite: 0 };
    expect(computeCost(usage, undefined)).toBeNull();
    expect(computeCost(usage)).toBeNull();
    expect(computeCost(usage, CATALOGUE["ollama/qwen3"].pricing)).toBe(0);
    expect(addCost(1, null)).toBeNull();
    expect(addCost(1, 2)).toBe(3);
  });

  it("catalogue prices give the expected cost for a real model", () => {
    const usage = { prompt: 1000, completion: 500, cacheRead: 0, cacheWrite: 0 };
    expect(computeCost(usage, CATALOGUE["openai/gpt-4o-mini"].pricing)).toBeCloseTo(
      (1000 * 0.15 + 500 * 0.6) / 1e6,
      15,
    );
  });

  it("adds usage field by field and computes billed input", () => {
    const a = { prompt: 10, completion: 2, cacheRead: 4, cacheWrite: 1 };
    expect(addUsage(emptyUsage(), a)).toEqual(a);
    expect(addUsage(a, a)).toEqual({ prompt: 20, completion: 4, cacheRead: 8, cacheWrite: 2 });
    expect(emptyUsage()).toEqual({ prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0 });
    expect(billedInput(a)).toBe(6);
  });

  it("every catalogue entry is well formed", () => {
    for (const [id, info] of Object.entries(CATALOGUE)) {
      expect(id).toMatch(/^[^/]+\/\S+$/);
      expect(info.contextWindow, id).toBeGreaterThanOrEqual(info.maxOutputTokens);
      expect(info.maxOutputTokens, id).toBeGreaterThan(0);
      // models.dev names no price for a few (Gemma on the Gemini API, OpenRouter's auto router):
      // their cost stays unknown, never 0.
      if (!/^google\/gemma-|^openrouter\/openrouter\//.test(id)) expect(info.pricing, id).toBeDefined();
      for (const tier of info.pricing?.tiers ?? []) expect(tier.above, id).toBeGreaterThan(0);
    }
  });
});

describe("long-context prices (R-PROV-16)", () => {
  const pricing = {
    input: 1.25,
    output: 10,
    cacheRead: 0.125,
    tiers: [{ above: 200000, input: 2.5, output: 15, cacheRead: 0.25 }],
  };
  it("bills a prompt over the tier's size at the tier's prices, and one at or below it at the base prices", () => {
    expect(
      computeCost({ prompt: 200000, completion: 1000, cacheRead: 0, cacheWrite: 0 }, pricing),
    ).toBeCloseTo((200000 * 1.25 + 1000 * 10) / 1e6);
    expect(
      computeCost({ prompt: 300000, completion: 1000, cacheRead: 100000, cacheWrite: 0 }, pricing),
    ).toBeCloseTo((200000 * 2.5 + 100000 * 0.25 + 1000 * 15) / 1e6);
  });
});
