// Anthropic's `pause_turn` stop reason (a long run of its own server tools, e.g. web search, was
// paused): the turn goes on by sending the paused answer back whole (with a note to go on),
// instead of failing on an unknown finish reason. The continuation is a legal request and both
// requests are billed.
import { describe, expect, it } from "vitest";
import { anthropicStream } from "../support/anthropic-script.js";
import { sseEvent } from "../support/fake-provider.js";
import { anthropicViolations } from "../support/request-rules.js";
import { useHarness } from "./harness.js";

const h = useHarness();

/** A web search the provider ran itself: the call block and its result block. */
function search(builder: ReturnType<typeof anthropicStream>, first: number, id: string) {
  const block = (type: string, body: object) => builder.raw(sseEvent(type, { type, ...body }));
  block("content_block_start", {
    index: first,
    content_block: { type: "server_tool_use", id, name: "web_search", input: {} },
  });
  block("content_block_delta", {
    index: first,
    delta: { type: "input_json_delta", partial_json: '{"query":"node lts"}' },
  });
  block("content_block_stop", { index: first });
  block("content_block_start", {
    index: first + 1,
    content_block: {
      type: "web_search_tool_result",
      tool_use_id: id,
      content: [
        { type: "web_search_result", url: "https://nodejs.org", title: "Node", encrypted_content: "EC" },
      ],
    },
  });
  block("content_block_stop", { index: first + 1 });
  return builder;
}

describe("pause_turn (Anthropic server tools)", () => {
  it("continues the turn with the paused answer sent back whole; the turn completes", async () => {
    const t = await h.start({
      config: (c) => {
        c.model = "anth/claude-test";
        c.providers.anth = { api: "anthropic-messages", baseUrl: "http://127.0.0.1:9/v1", headers: {} };
        c.models["anth/claude-test"] = { hostedTools: ["web_search"] };
      },
    });
    const paused = search(anthropicStream().text("Searching."), 1, "srvtoolu_1")
      .stop("pause_turn")
      .usage({ input_tokens: 100, output_tokens: 20 });
    h.provider.enqueue(
      paused.build(),
      anthropicStream().text("Node 24 is the LTS.").usage({ input_tokens: 150, output_tokens: 10 }).build(),
    );
    const outcome = await t.prompt("which node is lts?");
    expect(outcome.stopReason).toBe("completed");
    expect(h.provider.requests).toHaveLength(2);

    const second = h.provider.requests[1].body;
    expect(anthropicViolations(second)).toEqual([]);
    // The paused answer goes back whole, followed by the note to go on.
    const [answer, note] = second.messages.slice(-2);
    expect(answer.role).toBe("assistant");
    const types = answer.content.map((b: any) => b.type);
    expect(types).toEqual(expect.arrayContaining(["text", "server_tool_use", "web_search_tool_result"]));
    expect(note.role).toBe("user");
    expect(JSON.stringify(note)).toContain("pause_turn");
    // Both requests are in the turn's usage (the bill).
    expect(t.events.find((e) => e.type === "turn_end")).toMatchObject({
      model_calls: 2,
      usage: { prompt: 250, completion: 30 },
    });
  });
});

describe("pause_turn without end", () => {
  it("stops the turn after 9 pauses in a row instead of spending the model-call budget", async () => {
    const t = await h.start({
      config: (c) => {
        c.model = "anth/claude-test";
        c.providers.anth = { api: "anthropic-messages", baseUrl: "http://127.0.0.1:9/v1", headers: {} };
      },
    });
    for (let i = 0; i < 12; i++)
      h.provider.enqueue(anthropicStream().text(`still searching ${i}`).stop("pause_turn").build());
    const outcome = await t.prompt("search forever");
    expect(outcome.stopReason).toBe("failed");
    expect(outcome.error?.message).toContain("pause_turn");
    expect(h.provider.requests).toHaveLength(9);
  });
});
