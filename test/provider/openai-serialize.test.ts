// The incremental body serializer must send byte for byte what JSON.stringify(buildChatBody())
// would, whatever was cached from earlier rounds (images, the multimodal bridge, compaction).
import { describe, expect, it } from "vitest";
import { serializeChatBody } from "../../src/provider/openai-body.js";
import { buildChatBody } from "../../src/provider/openai-request.js";
import type { NormalizedRequest } from "../../src/provider/types.js";
import type { Message } from "../../src/vocab/messages.js";

const PNG = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };
const TOOLS = [
  { name: "read_file", description: "Reads a file", parameters: { type: "object", properties: {} } },
];

function request(messages: Message[], over: Partial<NormalizedRequest> = {}): NormalizedRequest {
  return { model: "m-1", system: "Be brief.", tools: TOOLS, messages, images: true, ...over };
}

const history: Message[] = [
  { role: "user", content: [{ type: "text", text: 'Look at "a.png"\nplease' }, PNG] },
  {
    role: "assistant",
    text: "",
    reasoning: "hidden",
    toolCalls: [
      { id: "c1", name: "read_file", arguments: '{"path":"a.png"}', extra: { extra_content: { x: 1 } } },
      { id: "c2", name: "read_file", arguments: '{"path":"b.txt"}' },
    ],
  },
  { role: "tool", toolCallId: "c1", toolName: "read_file", content: [PNG], isError: false },
  {
    role: "tool",
    toolCallId: "c2",
    toolName: "read_file",
    content: [{ type: "text", text: "ünïcødé ✓" }],
    isError: false,
  },
  { role: "assistant", text: "Done.", reasoning: "", toolCalls: [] },
];

describe("serializeChatBody", () => {
  it("reuses the joined prefix of a growing array and still equals JSON.stringify", () => {
    const grow: Message[] = [{ role: "user", content: [{ type: "text", text: "start" }] }];
    for (let round = 1; round <= 4; round++) {
      expect(serializeChatBody(request(grow))).toBe(JSON.stringify(buildChatBody(request(grow))));
      grow.push(
        {
          role: "assistant",
          text: `r${round}`,
          reasoning: "",
          toolCalls: [{ id: `c${round}`, name: "read_file", arguments: "{}" }],
        },
        {
          role: "tool",
          toolCallId: `c${round}`,
          toolName: "read_file",
          content: [{ type: "text", text: `out ${round}` }],
          isError: false,
        },
      );
    }
    // A compaction-like replacement inside the array is noticed (the last cached message changed).
    grow[grow.length - 1] = {
      role: "tool",
      toolCallId: "c4",
      toolName: "read_file",
      content: [{ type: "text", text: "shed" }],
      isError: false,
    };
    expect(serializeChatBody(request(grow))).toBe(JSON.stringify(buildChatBody(request(grow))));
    // A system-less request and an empty history.
    expect(serializeChatBody(request([], { system: "" }))).toBe(
      JSON.stringify(buildChatBody(request([], { system: "" }))),
    );
  });

  it("equals JSON.stringify(buildChatBody()) with images allowed and refused, on first and later rounds", () => {
    for (let round = 0; round < 3; round++) {
      for (const images of [true, false]) {
        const req = request(history, { images });
        expect(serializeChatBody(req)).toBe(JSON.stringify(buildChatBody(req)));
      }
    }
  });

  it("handles no system prompt, no tools and an empty history", () => {
    for (const req of [request([], { system: "", tools: [] }), request(history.slice(4), { tools: [] })])
      expect(serializeChatBody(req)).toBe(JSON.stringify(buildChatBody(req)));
  });

  it("follows a message replaced by a new object (compaction) instead of reusing stale JSON", () => {
    const first = request(history);
    serializeChatBody(first);
    const compacted = [...history];
    compacted[3] = { ...(history[3] as any), content: [{ type: "text", text: "[elided]" }] };
    const req = request(compacted);
    const body = serializeChatBody(req);
    expect(body).toBe(JSON.stringify(buildChatBody(req)));
    expect(body).toContain("[elided]");
    expect(body).not.toContain("ünïcødé");
  });
});
