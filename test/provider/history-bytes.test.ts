// Every wire's body with its history kept between rounds must be, byte for byte, the body built
// whole that round: over a growing conversation (several tool rounds, results that join one wire
// message, a prompt after them, thinking, images, Gemini call ids), a side question on the same
// history, a compaction (a new array), and a rewind that withdraws and replaces messages of the
// same array, so a stale kept entry shows as a difference.
import { describe, expect, it } from "vitest";
import { anthropicBodyChunks } from "../../src/provider/anthropic-body.js";
import { buildAnthropicBody } from "../../src/provider/anthropic-request.js";
import { bedrockBodyChunks } from "../../src/provider/bedrock-body.js";
import { buildBedrockBody } from "../../src/provider/bedrock-request.js";
import { geminiBodyChunks } from "../../src/provider/gemini-body.js";
import { buildGeminiBody } from "../../src/provider/gemini-request.js";
import { serializeChatBody } from "../../src/provider/openai-body.js";
import { buildChatBody, chatWireOptions, DEFAULT_WIRE } from "../../src/provider/openai-request.js";
import { responsesBodyChunks } from "../../src/provider/responses-body.js";
import { buildResponsesBody } from "../../src/provider/responses-request.js";
import type { NormalizedRequest } from "../../src/provider/types.js";
import type { Message } from "../../src/vocab/messages.js";

const PNG = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };
const TOOLS = [
  { name: "read_file", description: "Reads a file", parameters: { type: "object", properties: {} } },
  { name: "bash", description: "Runs a command", parameters: { type: "object" } },
];

interface Wire {
  name: string;
  cached(request: NormalizedRequest): string;
  whole(request: NormalizedRequest): string;
}

// Azure OpenAI rides the chat adapter with its own host; OpenAI's own API echoes reasoning here.
const AZURE_WIRE = chatWireOptions("https://resource.openai.azure.com/openai/v1");
const ECHO_WIRE = chatWireOptions("https://api.openai.com/v1", {
  echoReasoning: true,
  reasoningEffort: true,
});
const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString("utf8");
const WIRES: Wire[] = [
  {
    name: "anthropic",
    cached: (r) => text(anthropicBodyChunks(r)),
    whole: (r) => JSON.stringify(buildAnthropicBody(r)),
  },
  {
    name: "vertex anthropic",
    cached: (r) =>
      text(anthropicBodyChunks(r, ({ model: _m, ...body }) => ({ anthropic_version: "v", ...body }))),
    whole: (r) => {
      const { model: _m, ...body } = buildAnthropicBody(r);
      return JSON.stringify({ anthropic_version: "v", ...body });
    },
  },
  {
    name: "responses",
    cached: (r) => text(responsesBodyChunks(r)),
    whole: (r) => JSON.stringify(buildResponsesBody(r)),
  },
  {
    name: "responses without reasoning items",
    cached: (r) => text(responsesBodyChunks(r, { encryptedReasoning: false })),
    whole: (r) => JSON.stringify(buildResponsesBody(r, { encryptedReasoning: false })),
  },
  {
    name: "gemini",
    cached: (r) => text(geminiBodyChunks(r)),
    whole: (r) => JSON.stringify(buildGeminiBody(r)),
  },
  {
    name: "bedrock",
    cached: (r) => text(bedrockBodyChunks(r)),
    whole: (r) => JSON.stringify(buildBedrockBody(r)),
  },
  {
    name: "bedrock claude",
    cached: (r) => text(bedrockBodyChunks({ ...r, model: "anthropic.claude-sonnet-4-5" })),
    whole: (r) => JSON.stringify(buildBedrockBody({ ...r, model: "anthropic.claude-sonnet-4-5" })),
  },
  {
    name: "openai chat",
    cached: (r) => serializeChatBody(r, DEFAULT_WIRE),
    whole: (r) => JSON.stringify(buildChatBody(r, DEFAULT_WIRE)),
  },
  {
    name: "azure chat",
    cached: (r) => serializeChatBody(r, AZURE_WIRE),
    whole: (r) => JSON.stringify(buildChatBody(r, AZURE_WIRE)),
  },
  {
    name: "openai chat echoing reasoning",
    cached: (r) => serializeChatBody(r, ECHO_WIRE),
    whole: (r) => JSON.stringify(buildChatBody(r, ECHO_WIRE)),
  },
];

function request(messages: Message[], over: Partial<NormalizedRequest> = {}): NormalizedRequest {
  return { model: "m-1", system: "Be brief.", tools: TOOLS, messages, images: true, ...over };
}

const user = (words: string): Message => ({ role: "user", content: [{ type: "text", text: words }] });

/** Round n of a tool loop: the assistant's calls (with thinking every other round) and their results. */
function toolRound(n: number, calls = 2): Message[] {
  const ids = Array.from({ length: calls }, (_, i) => `call_${n}_${i}`);
  return [
    {
      role: "assistant",
      text: n % 3 === 0 ? `Round ${n} "quoted" ✓` : "",
      reasoning: n % 2 === 0 ? `think ${n}` : "",
      ...(n % 2 === 0 ? { thinkingBlocks: [{ thinking: `think ${n}`, signature: `sig${n}` }] } : {}),
      toolCalls: ids.map((id, i) => ({
        id,
        name: i === 0 ? "read_file" : "bash",
        arguments: JSON.stringify({ path: `f${n}.ts`, i }),
        ...(n % 2 === 1 ? { extra: { gemini: { id: `g-${id}`, thoughtSignature: `ts${n}` } } } : {}),
      })),
    },
    ...ids.map(
      (id, i): Message => ({
        role: "tool",
        toolCallId: id,
        toolName: i === 0 ? "read_file" : "bash",
        content:
          i === 1 && n === 2
            ? [{ type: "text", text: "shot" }, PNG]
            : [{ type: "text", text: `out ${n}.${i}\n` }],
        isError: i === 1 && n === 4,
      }),
    ),
  ];
}

function expectSame(wire: Wire, req: NormalizedRequest, when: string): void {
  expect(wire.cached(req), `${wire.name}: ${when}`).toBe(wire.whole(req));
}

describe("request bodies with the history kept between rounds", () => {
  for (const wire of WIRES) {
    it(`${wire.name}: equal the body built whole, round after round, through a compaction and a rewind`, () => {
      for (const over of [{}, { thinking: "medium" as const }, { images: false }]) {
        const history: Message[] = [user("start")];
        for (let n = 1; n <= 6; n++) {
          expectSame(wire, request(history, over), `round ${n}`);
          history.push(...toolRound(n));
          // A side question on the same history (no tools), then the turn goes on.
          if (n === 3) expectSame(wire, request(history, { ...over, tools: [] }), "side question");
          // A prompt right after the results joins their wire message on the merging wires.
          if (n === 4) history.push(user("and also this"));
        }
        history.push({ role: "assistant", text: "Done.", reasoning: "", toolCalls: [] });
        expectSame(wire, request(history, over), "turn end");

        // A compaction: a new array, the summary first, the newest round kept.
        const compacted: Message[] = [user("summary of the work so far"), ...history.slice(-4)];
        expectSame(wire, request(compacted, over), "after compaction");
        compacted.push(user("next"), ...toolRound(7, 1));
        expectSame(wire, request(compacted, over), "a round after compaction");

        // A rewind in place: messages withdrawn from the same array and others put in their place.
        compacted.length = 2;
        compacted.push(user("instead, do this"), ...toolRound(8, 1));
        expectSame(wire, request(compacted, over), "after the rewind");
        compacted[compacted.length - 1] = {
          role: "tool",
          toolCallId: "call_8_0",
          toolName: "read_file",
          content: [{ type: "text", text: "edited" }],
          isError: false,
        };
        expectSame(wire, request(compacted, over), "after the newest message was replaced");
        compacted.push(...toolRound(9, 3));
        expectSame(wire, request(compacted, over), "a round after the rewind");
      }
    });
  }

  it("an empty history and a system-less request", () => {
    for (const wire of WIRES) {
      expectSame(wire, request([], { system: "" }), "empty");
      expectSame(wire, request([user("hi")], { system: "", tools: [] }), "one prompt, no tools");
    }
  });
});
