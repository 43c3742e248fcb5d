// The fake provider's Gemini and Bedrock request rules flag what those APIs refuse, and only that.
import { describe, expect, it } from "vitest";
import { bedrockViolations, geminiViolations } from "./cloud-request-rules.js";
import { protocolOfPath } from "./request-rules.js";

const call = (name: string) => ({ functionCall: { name, args: {} } });
const answer = (name: string) => ({ functionResponse: { name, response: { output: "" } } });

describe("gemini request rules", () => {
  it("accepts calls answered in order in the next user content", () => {
    const contents = [
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts: [call("a"), call("b")] },
      { role: "user", parts: [answer("a"), answer("b")] },
    ];
    expect(geminiViolations({ contents })).toEqual([]);
  });

  it("flags a missing answer, an answer with no call and a dangling call", () => {
    expect(
      geminiViolations({
        contents: [
          { role: "model", parts: [call("a")] },
          { role: "user", parts: [{ text: "x" }] },
        ],
      }),
    ).toHaveLength(1);
    expect(geminiViolations({ contents: [{ role: "user", parts: [answer("a")] }] })).toHaveLength(1);
    expect(
      geminiViolations({
        contents: [
          { role: "user", parts: [{ text: "x" }] },
          { role: "model", parts: [call("a")] },
        ],
      }),
    ).toHaveLength(1);
  });

  it("knows the paths", () => {
    expect(protocolOfPath("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse")).toBe(
      "google-gemini",
    );
    expect(protocolOfPath("/model/amazon.nova-pro-v1%3A0/converse-stream")).toBe("bedrock-converse");
  });
});

describe("bedrock request rules", () => {
  const use = (id: string) => ({ toolUse: { toolUseId: id, name: "t", input: {} } });
  const result = (id: string) => ({ toolResult: { toolUseId: id, content: [{ text: "" }] } });
  const toolConfig = { tools: [] };

  it("accepts tool uses answered by id in the next user message", () => {
    const messages = [
      { role: "user", content: [{ text: "hi" }] },
      { role: "assistant", content: [use("a"), use("b")] },
      { role: "user", content: [result("b"), result("a")] },
    ];
    expect(bedrockViolations({ messages, toolConfig })).toEqual([]);
  });

  it("flags a missing or unknown result, two turns of one role and tool blocks without toolConfig", () => {
    const messages = [
      { role: "user", content: [{ text: "hi" }] },
      { role: "assistant", content: [use("a")] },
      { role: "user", content: [result("z")] },
    ];
    expect(bedrockViolations({ messages, toolConfig })).toHaveLength(2);
    expect(
      bedrockViolations({
        messages: [
          { role: "user", content: [] },
          { role: "user", content: [] },
        ],
      }),
    ).toHaveLength(1);
    expect(bedrockViolations({ messages: messages.slice(0, 2) })).toHaveLength(1);
  });
});
