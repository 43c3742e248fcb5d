// R-RETRY-2: a server-given retry delay is honoured as given; when it would pass the turn's
// duration limit the turn stops as duration_limit_reached at once, and the stop names the
// server's requested wait, so the user knows why (not a silent stop).
import { describe, expect, it } from "vitest";
import { ternRun, useE2E } from "./tools-support.js";

const e = useE2E();

const rateLimited = (headers: Record<string, string>) => ({
  status: 429,
  headers,
  body: JSON.stringify({
    error: { message: "Rate limit reached", type: "tokens", code: "rate_limit_exceeded" },
  }),
});

describe("a long server retry-after and the duration limit", () => {
  it("stops as duration_limit_reached and says the server asked to wait", async () => {
    e.provider.enqueue(rateLimited({ "retry-after": "3600" }));
    const run = await ternRun(e, ["--max-duration", "600"], "hi", { timeoutMs: 30_000 });
    expect(run.code).toBe(3);
    expect(run.end).toMatchObject({ stop_reason: "duration_limit_reached", model_calls: 1 });
    const error = run.events.find((ev) => ev.type === "error");
    expect(error).toMatchObject({ class: "rate_limit", status: 429 });
    expect(error.message).toContain("the provider asked to wait 3600s before retrying (retry-after)");
    expect(error.message).toContain("Rate limit reached");
    expect(run.end.error.message).toBe(error.message);
    expect(e.provider.requests).toHaveLength(1);
  });

  it("says so in plain mode too, on stderr", async () => {
    e.provider.enqueue(rateLimited({ "retry-after-ms": "900000" }));
    const run = await e.run(
      ["run", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "--max-duration", "60", "hi"],
      { OPENAI_API_KEY: "sk-test-key" },
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("the provider asked to wait 900s before retrying");
  });
});
