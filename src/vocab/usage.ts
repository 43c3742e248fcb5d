// Token usage of one model request and its arithmetic: the counts the ledger, budgets and the
// progress row add up.

/** R-PROV-6: `prompt` is ALL input tokens, cached ones included. */
export interface Usage {
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
  /** Provider-run web searches this request made (billed per search, R-PROV-11); absent = 0. */
  webSearches?: number;
}

export function emptyUsage(): Usage {
  return { prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    prompt: a.prompt + b.prompt,
    completion: a.completion + b.completion,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
  };
  const searches = (a.webSearches ?? 0) + (b.webSearches ?? 0);
  if (searches > 0) sum.webSearches = searches;
  return sum;
}

/** The sum of several usages; null when there are none. */
export function sumUsage(usages: Iterable<Usage>): Usage | null {
  let sum: Usage | null = null;
  for (const u of usages) sum = addUsage(sum ?? emptyUsage(), u);
  return sum;
}

/** Billed input, the ledger column: prompt − cacheRead. */
export function billedInput(usage: Usage): number {
  return Math.max(0, usage.prompt - usage.cacheRead);
}
