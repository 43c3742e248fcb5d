// The fake provider refuses what the real providers refuse: an illegal request gets the 400 the
// real API sends (its error shape, the id named), keeps its script for the next request, and is
// reported so the shared afterEach fails the test; a test may opt out, saying why.
import { afterEach, describe, expect, it } from "vitest";
import { FakeProvider, takeUnreportedViolations } from "./fake-provider.js";
import { openaiStream } from "./openai-script.js";

let provider: FakeProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const orphanChat = {
  model: "m",
  messages: [
    { role: "user", content: "go" },
    { role: "tool", tool_call_id: "call_lost", content: "ok" },
  ],
};

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${provider!.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("the fake provider checks every request", () => {
  it("answers an illegal Chat Completions request 400, keeps the script, reports the violation", async () => {
    provider = await FakeProvider.start();
    provider.enqueue(openaiStream().text("hi").build());
    const refused = await post("/v1/chat/completions", orphanChat);
    expect(refused.status).toBe(400);
    const error = (await refused.json()) as { error: { message: string; type: string } };
    expect(error.error.type).toBe("invalid_request_error");
    expect(error.error.message).toContain("call_lost");
    expect(provider.pending).toBe(1);
    expect(provider.requests[0].violations.join()).toContain("call_lost");
    // What the shared afterEach would throw on; taken here so this test itself passes.
    const reported = takeUnreportedViolations();
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatch(/request 1 \(POST \/v1\/chat\/completions\): .*call_lost/);

    const served = await post("/v1/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "go" }],
    });
    expect(served.status).toBe(200);
    expect(await served.text()).toContain("hi");
    expect(provider.pending).toBe(0);
    expect(takeUnreportedViolations()).toEqual([]);
  });

  it("answers an illegal Anthropic request in Anthropic's error shape", async () => {
    provider = await FakeProvider.start();
    const refused = await post("/v1/messages", {
      model: "m",
      max_tokens: 10,
      tools: [{ name: "read", input_schema: { type: "object" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "go" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_owed", name: "read", input: {} }] },
        { role: "user", content: [{ type: "text", text: "next" }] },
      ],
    });
    expect(refused.status).toBe(400);
    const error = (await refused.json()) as { type: string; error: { type: string; message: string } };
    expect(error.type).toBe("error");
    expect(error.error.message).toContain("toolu_owed");
    expect(takeUnreportedViolations().join()).toContain("toolu_owed");
  });

  it("with a responder, refuses before the responder is asked", async () => {
    provider = await FakeProvider.start();
    let asked = 0;
    provider.setResponder(() => {
      asked++;
      return undefined;
    });
    const refused = await post("/v1/responses", {
      model: "m",
      stream: true,
      store: false,
      tools: [{ type: "function", name: "read" }],
      input: [{ type: "function_call", call_id: "fc_1", name: "read", arguments: "{}" }],
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "No tool output found for function call fc_1.",
    );
    expect(asked).toBe(0);
    expect(takeUnreportedViolations()).toHaveLength(1);
  });

  it("serves an illegal request its script when the test opts out, and keeps the violation to assert", async () => {
    // Opting out is for tests that send an illegal body on purpose, like this one.
    provider = await FakeProvider.start({ allowIllegalRequests: "this test sends an orphan tool result" });
    provider.enqueue(openaiStream().text("hi").build());
    const served = await post("/v1/chat/completions", orphanChat);
    expect(served.status).toBe(200);
    await served.text();
    expect(provider.violations).toHaveLength(1);
    expect(provider.violations[0]).toMatch(/^request 1: .*call_lost/);
    expect(takeUnreportedViolations()).toEqual([]);
  });

  it("leaves other paths and methods alone", async () => {
    provider = await FakeProvider.start();
    provider.enqueue({ body: "{}" }, { body: "{}" });
    expect((await fetch(`${provider.url}/v1/models`)).status).toBe(200);
    expect((await post("/api/chat", orphanChat)).status).toBe(200);
    expect(takeUnreportedViolations()).toEqual([]);
  });
});
