// R-COMP-2: a session whose history is far over the window always compacts.
// The records are generated directly (tern's own writer), then resumed: 5,000 turns under a
// 128k window, and 1,500 turns about 17 windows large switched to a 16k-window model. Every
// request the provider receives fits the window — by tern's estimate of the wire body and by its
// raw bytes / 4 — and the turn completes.
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { resolveModel } from "../../src/config/resolve.js";
import type { Config } from "../../src/config/types.js";
import { openaiText } from "../support/openai-script.js";
import { anthropicStream } from "../support/anthropic-script.js";
import { isSummaryRequest, type Protocol, wireEstimate } from "../support/long-turn.js";
import { anthropicViolations } from "../support/request-rules.js";
import { buildRecord } from "../support/long-record.js";
import { useHarness } from "./harness.js";

const h = useHarness();

const windows = (c: Config) => {
  c.models["local/big-1"] = { contextWindow: 2_000_000 };
  c.models["local/mock-1"] = { contextWindow: 128_000 };
  c.models["local/small-1"] = { contextWindow: 16_000 };
};

/** A record of `turns` turns, each a read_file round and an answer, written directly. */
const history = (turns: number, model: string, sizes: { resultBytes: number; answerBytes?: number }) =>
  buildRecord(h.dirs.home, h.dirs.workspace, { rounds: 2 * turns, roundsPerTurn: 2, model, ...sizes });

interface Seen {
  summary: boolean;
  estimate: number;
  rawTokens: number;
}

let turnRequestBody: any;

/** Answers summaries with a short text and turns with "carried on"; measures every request. */
function measure(protocol: Protocol = "openai-chat"): Seen[] {
  const seen: Seen[] = [];
  let n = 0;
  const answer = (text: string) =>
    protocol === "openai-chat" ? openaiText(text) : anthropicStream().text(text).stop("end_turn").build();
  h.provider.setResponder((req) => {
    const summary = isSummaryRequest(protocol, req.body);
    // The fake server refuses an illegal body anyway; named here, a violation says which rule.
    if (protocol === "anthropic-messages") expect(anthropicViolations(req.body)).toEqual([]);
    seen.push({ summary, estimate: wireEstimate(protocol, req.body), rawTokens: req.rawBody.length / 4 });
    if (!summary) turnRequestBody = req.body;
    // Only the measurements are needed: dropping the bodies keeps the run small.
    req.body = null;
    req.rawBody = "";
    return answer(summary ? `SUMMARY ${++n}: earlier tasks done.` : "carried on");
  });
  return seen;
}

function expectAllFit(seen: readonly Seen[], window: number): void {
  expect(seen.filter((s) => s.summary).length).toBeGreaterThan(1);
  for (const s of seen) {
    expect(s.estimate).toBeLessThan(window);
    expect(s.rawTokens).toBeLessThan(window);
  }
}

describe("a history far over the window", () => {
  it("5,000 turns resumed under a 128k window: every request fits, and the turn completes", async () => {
    // ~230k estimated tokens: each turn a read_file round (a small result) and a short answer.
    const built = history(5000, "local/mock-1", { resultBytes: 30 });
    const seen = measure();
    const t = await h.start({ config: windows, resume: { id: built.id } });
    const out = await t.prompt("the next task");
    expect(out.stopReason).toBe("completed");
    expect(out.finalText).toBe("carried on");
    expectAllFit(seen, 128_000);
    // One compaction: the summary stands first, then the newest turn and the new prompt.
    expect(t.events.filter((e) => e.type === "compaction").map((e: any) => e.stage)).toEqual(["summarize"]);
    // A side question reads the archive, not the compacted context: its copy drops the oldest
    // turns to fit (in one linear pass: it took 18 s here when each dropped turn re-estimated all).
    const side = await t.session.askSide("what was task 4999?", {
      history: [],
      signal: new AbortController().signal,
      onEvent: () => {},
    });
    expect(side).toMatchObject({ ok: true, text: "carried on" });
    expect(seen.at(-1)!.rawTokens).toBeLessThan(128_000);
  });

  it("1,500 turns (~17 windows) switched to a 16k-window model: every request fits, the oldest left to recall", async () => {
    const built = history(1500, "local/big-1", { resultBytes: 280, answerBytes: 400 });
    const seen = measure();
    const t = await h.start({ config: windows, resume: { id: built.id } });
    const config = defaultConfig();
    config.model = "local/small-1";
    windows(config);
    const small = resolveModel(config, {}, { baseUrl: h.provider.baseUrl }).model;
    await t.session.send({ type: "set_model", model: small });
    const out = await t.prompt("the next task");
    expect(out.stopReason).toBe("completed");
    expectAllFit(seen, 16_000);
    expect(seen.filter((s) => !s.summary)).toHaveLength(1);
    // More pieces than one compaction sends: the summary names the oldest turns it leaves to recall.
    const summary = turnRequestBody!.messages.find((m: any) => m.role === "user").content;
    expect(summary).toMatch(/^\[Summary of turns 1–1499, written by compaction/);
    expect(summary).toMatch(
      /\[Not summarized, too long to summarize at once: turns 1–\d+; recall \{"turn": N\} reads a turn\.\]/,
    );
  });

  it("on Anthropic too: the pieces of a history several windows large are legal requests that each fit", async () => {
    const built = history(400, "anth/claude-test", { resultBytes: 280 });
    const seen = measure("anthropic-messages");
    const t = await h.start({
      config: (c) => {
        c.model = "anth/claude-test";
        // The harness points the provider at the fake server with --base-url semantics.
        c.providers.anth = { api: "anthropic-messages", baseUrl: "http://127.0.0.1:9/v1", headers: {} };
        c.models["anth/claude-test"] = { contextWindow: 16_000 };
      },
      resume: { id: built.id },
    });
    const out = await t.prompt("the next task");
    expect(out.stopReason).toBe("completed");
    expectAllFit(seen, 16_000);
  });
});
