// Every request a session sends over the Responses API after tool use — the turn's rounds, the
// overflow compaction and its re-run, /compact, a side question — must be one the real API
// accepts, with the reasoning items kept where they belong (R-PROV-9, R-COMP-2, R-SIDE-1).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiError } from "../support/openai-script.js";
import { responsesStream } from "../support/responses-script.js";
import { responsesViolations } from "../support/request-rules.js";
import { useHarness } from "./harness.js";

const h = useHarness();

describe("requests over the Responses API after tool use", () => {
  it("the overflow re-run, /compact and a side question are all legal; reasoning travels", async () => {
    writeFileSync(join(h.dirs.workspace, "a.txt"), "alpha\n");
    const t = await h.start({
      config: (c) => {
        c.model = "resp/gpt-test";
        c.providers.resp = { api: "openai-responses", baseUrl: "http://127.0.0.1:9/v1", headers: {} };
        c.models["resp/gpt-test"] = { thinking: "low" };
      },
    });
    h.provider.enqueue(
      responsesStream()
        .reasoning("read it", "ENC-1")
        .functionCall({ callId: "call_1", name: "read_file", args: { path: "a.txt" } })
        .build(),
      responsesStream().reasoning("answer", "ENC-2").text("It says alpha.").build(),
    );
    expect((await t.prompt("read a.txt")).stopReason).toBe("completed");

    h.provider.enqueue(
      openaiError(400, {
        error: {
          message: "Your input exceeds the context window of this model.",
          type: "invalid_request_error",
          code: "context_length_exceeded",
        },
      }),
      responsesStream().text("SUMMARY of turn 1").build(),
      responsesStream().text("recovered").build(),
    );
    expect((await t.prompt("and again")).stopReason).toBe("completed");

    h.provider.enqueue(
      responsesStream()
        .reasoning("again", "ENC-3")
        .functionCall({ callId: "call_2", name: "read_file", args: { path: "a.txt" } })
        .build(),
      responsesStream().text("still alpha").build(),
      responsesStream().text("SUMMARY of turns 2-3").build(),
    );
    await t.prompt("once more");
    await t.session.send({ type: "compact" });

    h.provider.enqueue(responsesStream().text("side answer").build());
    const side = await t.session.askSide("what did you read?", {
      history: [],
      signal: new AbortController().signal,
      onEvent: () => {},
    });
    expect(side).toMatchObject({ ok: true, text: "side answer" });

    const requests = h.provider.requests;
    expect(new Set(requests.map((r) => r.path))).toEqual(new Set(["/v1/responses"]));
    const bodies = requests.map((r) => r.body);
    bodies.forEach((body, i) => {
      expect(responsesViolations(body), `request ${i + 1}`).toEqual([]);
      expect(body.prompt_cache_key, `request ${i + 1}`).toBe(t.session.id);
    });
    // Round 2 of turn 1 got the reasoning item back before the call it preceded.
    expect(bodies[1].input.map((i: any) => i.type ?? i.role)).toEqual([
      "user",
      "reasoning",
      "function_call",
      "function_call_output",
    ]);
    expect(bodies[1].reasoning).toEqual({ effort: "low", summary: "auto" });
    // The summaries saw the tool history with the definitions and no permission to call.
    const summaries = bodies.filter((b) => b.tool_choice !== undefined);
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    for (const body of summaries) {
      expect(body.tool_choice).toBe("none");
      expect(body.tools.length).toBeGreaterThan(0);
    }
    expect(summaries.some((b) => b.input.some((i: any) => i.type === "function_call"))).toBe(true);
    // The side question has no tools: earlier calls arrive as text, no reasoning items.
    const sideBody = bodies.at(-1);
    expect(sideBody).not.toHaveProperty("tools");
    expect(JSON.stringify(sideBody.input)).toContain("[tool call call_");
    expect(sideBody.input.some((i: any) => i.type === "reasoning" || i.type === "function_call")).toBe(false);
  });
});
