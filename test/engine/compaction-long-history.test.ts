// R-COMP-2: a session whose history is far over the window always compacts. A 5,000-turn record
// (about 230k estimated tokens) resumed under a 128k window: every summary request fits the
// window, and the turn completes.
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { isSummaryRequest, wireEstimate } from "../support/long-turn.js";
import { buildRecord } from "../support/long-record.js";
import { useHarness } from "./harness.js";

const h = useHarness();

const windowOf = (contextWindow: number) => (c: any) => {
  c.models["local/mock-1"] = { contextWindow };
};

describe("a history far over the window", () => {
  it("5,000 turns under a 128k window: every request fits, and the turn completes", async () => {
    const t0 = Date.now();
    const built = buildRecord(h.dirs.home, h.dirs.workspace, {
      rounds: 10_000,
      roundsPerTurn: 2,
      resultBytes: 30,
      model: "local/mock-1",
    });
    console.log("built", Date.now() - t0, built.bytes);
    const sizes: { summary: boolean; estimate: number; raw: number }[] = [];
    let n = 0;
    h.provider.setResponder((req) => {
      const summary = isSummaryRequest("openai-chat", req.body);
      sizes.push({ summary, estimate: wireEstimate("openai-chat", req.body), raw: req.rawBody.length });
      req.body = null;
      req.rawBody = "";
      return summary ? openaiText(`SUMMARY ${++n}: the earlier tasks.`) : openaiText("carried on");
    });
    const t = await h.start({ config: windowOf(128_000), resume: { id: built.id } });
    const out = await t.prompt("the next task");
    console.log("done", Date.now() - t0, out.stopReason, out.error, sizes);
    expect(out.stopReason).toBe("completed");
    for (const s of sizes) expect(s.estimate).toBeLessThan(128_000);
  }, 60_000);
});
