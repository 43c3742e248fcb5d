// Every request a session sends to an Anthropic server after tool use — the turn's rounds, the
// overflow compaction and its re-run, /compact, a side question — must be one the real API
// accepts: tool blocks only beside tool definitions (R-COMP-2, R-SIDE-1).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicError, anthropicStream } from "../support/anthropic-script.js";
import { anthropicViolations } from "../support/request-rules.js";
import { useHarness } from "./harness.js";

const h = useHarness();

const anthropicSession = () =>
  h.start({
    config: (c) => {
      c.model = "anth/claude-test";
      // The harness points the provider at the fake server with --base-url semantics.
      c.providers.anth = { api: "anthropic-messages", baseUrl: "http://127.0.0.1:9/v1", headers: {} };
    },
  });

const hasToolBlocks = (body: any) =>
  body.messages.some(
    (m: any) =>
      Array.isArray(m.content) &&
      m.content.some((b: any) => b.type === "tool_use" || b.type === "tool_result"),
  );

describe("requests to Anthropic after tool use", () => {
  it("the overflow re-run, /compact and a side question are all legal", async () => {
    writeFileSync(join(h.dirs.workspace, "a.txt"), "alpha\n");
    const t = await anthropicSession();
    h.provider.enqueue(
      anthropicStream()
        .text("Reading.")
        .toolUse({ id: "toolu_1", name: "read_file", input: { path: "a.txt" } })
        .stop("tool_use")
        .build(),
      anthropicStream().text("It says alpha.").build(),
    );
    expect((await t.prompt("read a.txt")).stopReason).toBe("completed");

    // A provider overflow: one compaction (a summary request over the tool history), one re-run.
    h.provider.enqueue(
      anthropicError(400, "invalid_request_error", "prompt is too long: 205429 tokens > 200000 maximum"),
      anthropicStream().text("SUMMARY of turn 1").build(),
      anthropicStream().text("recovered").build(),
    );
    expect((await t.prompt("and again")).stopReason).toBe("completed");

    h.provider.enqueue(
      anthropicStream()
        .toolUse({ id: "toolu_2", name: "read_file", input: { path: "a.txt" } })
        .stop("tool_use")
        .build(),
      anthropicStream().text("still alpha").build(),
      anthropicStream().text("SUMMARY of turns 2-3").build(),
    );
    await t.prompt("once more");
    await t.session.send({ type: "compact" });

    h.provider.enqueue(anthropicStream().text("side answer").build());
    const side = await t.session.askSide("what did you read?", {
      history: [],
      signal: new AbortController().signal,
      onEvent: () => {},
    });
    expect(side).toMatchObject({ ok: true, text: "side answer" });

    const bodies = h.provider.requests.map((r) => r.body);
    bodies.forEach((body, i) => {
      expect(anthropicViolations(body), `request ${i + 1}`).toEqual([]);
    });
    // The summaries saw the tool history with the definitions and no permission to call.
    const summaries = bodies.filter((b) => b.tool_choice !== undefined);
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    for (const body of summaries) {
      expect(body.tool_choice).toEqual({ type: "none" });
      expect(body.tools.length).toBeGreaterThan(0);
    }
    expect(summaries.some(hasToolBlocks)).toBe(true);
    // The side question keeps its empty tool list; the earlier calls arrive as text.
    const sideBody = bodies.at(-1);
    expect(sideBody).not.toHaveProperty("tools");
    expect(hasToolBlocks(sideBody)).toBe(false);
    expect(JSON.stringify(sideBody.messages)).toContain("[tool call toolu_1: read_file");
  });
});
