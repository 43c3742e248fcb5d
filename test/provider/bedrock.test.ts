// The Bedrock adapter (R-PROV-14) against a real HTTP server on 127.0.0.1 answering real AWS
// event-stream frames (encoded with the AWS codec; recorded streams from vercel/ai's fixtures in
// test/fixtures/providers/bedrock-recorded.json): the request and its SigV4 signature (recomputed
// with the AWS signer), text, reasoning with its signature, tool use, usage with cache reads and
// writes, stop reasons, exception frames and HTTP errors.
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { forgetAwsCredentials } from "../../src/provider/aws-signing.js";
import { createBedrockAdapter } from "../../src/provider/bedrock.js";
import { ProviderError } from "../../src/provider/errors.js";
import type { NormalizedRequest, ProviderEvent, StreamResult } from "../../src/provider/types.js";
import {
  EVENT_STREAM_HEADERS,
  eventFrame,
  exceptionFrame,
  expectedAuthorization,
  framesOf,
} from "../support/aws-event-stream.js";
import { FakeProvider } from "../support/fake-provider.js";

const recorded = JSON.parse(
  readFileSync(new URL("../fixtures/providers/bedrock-recorded.json", import.meta.url), "utf8"),
);
const CREDENTIALS = {
  accessKeyId: "AKIDEXAMPLETERN0001",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEYtern",
  sessionToken: "FwoGZXIvYXdzEXAMPLESESSIONTOKENtern0123456789",
};
const MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const AWS_VARS = [
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_PROFILE",
  "AWS_CONFIG_FILE",
  "AWS_SHARED_CREDENTIALS_FILE",
  "AWS_EC2_METADATA_DISABLED",
];
const saved: Record<string, string | undefined> = {};

let fake: FakeProvider;
beforeAll(() => {
  for (const name of AWS_VARS) saved[name] = process.env[name];
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    AWS_SESSION_TOKEN: CREDENTIALS.sessionToken,
    AWS_CONFIG_FILE: "/nonexistent/tern-test/config",
    AWS_SHARED_CREDENTIALS_FILE: "/nonexistent/tern-test/credentials",
    AWS_EC2_METADATA_DISABLED: "true",
  });
  delete process.env.AWS_PROFILE;
});
afterAll(() => {
  for (const name of AWS_VARS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  forgetAwsCredentials();
});
beforeEach(async () => {
  forgetAwsCredentials();
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

const base: NormalizedRequest = {
  model: MODEL,
  system: "You are tern.",
  tools: [{ name: "read", description: "Read a file", parameters: { type: "object", properties: {} } }],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  images: true,
};

async function run(req: NormalizedRequest = base, apiKey?: string) {
  const adapter = createBedrockAdapter({
    api: "bedrock-converse",
    baseUrl: fake.url,
    headers: {},
    ...(apiKey ? { apiKey } : { auth: { kind: "aws-sigv4", region: "us-east-1" } }),
  });
  const events: ProviderEvent[] = [];
  for await (const e of adapter.stream(req, { signal: new AbortController().signal, idleTimeoutMs: 5000 }))
    events.push(e);
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error("no done event");
  return { events: events.slice(0, -1), result: done.result as StreamResult };
}

const stream = (frames: Uint8Array[]) => ({ headers: EVENT_STREAM_HEADERS, binaryFrames: frames });

describe("bedrock adapter: the request", () => {
  it("posts a Converse body to /model/<id>/converse-stream, signed with SigV4 as Bedrock checks it", async () => {
    fake.enqueue(stream(framesOf(recorded.reasoningText)));
    await run({ ...base, maxOutputTokens: 2000 });
    const sent = fake.requests[0];
    expect(sent.path).toBe("/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream");
    expect(sent.headers["x-amz-security-token"]).toBe(CREDENTIALS.sessionToken);
    expect(String(sent.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLETERN0001\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$/,
    );
    const expected = await expectedAuthorization(sent, CREDENTIALS, "us-east-1", fake.port);
    expect(sent.headers.authorization).toBe(expected);
    // The canonical path is encoded twice (`%253A`): S3's single encoding gives another signature.
    expect(await expectedAuthorization(sent, CREDENTIALS, "us-east-1", fake.port, false)).not.toBe(expected);
    expect(sent.body).toEqual({
      inferenceConfig: { maxTokens: 2000 },
      system: [{ text: "You are tern." }, { cachePoint: { type: "default" } }],
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: "read",
              description: "Read a file",
              inputSchema: { json: { type: "object", properties: {} } },
            },
          },
          { cachePoint: { type: "default" } },
        ],
      },
      messages: [{ role: "user", content: [{ text: "hi" }, { cachePoint: { type: "default" } }] }],
    });
  });

  it("sends a Bedrock API key as a Bearer token instead of signing", async () => {
    fake.enqueue(stream(framesOf(recorded.toolCall)));
    await run(base, "bedrock-api-key-0123456789");
    expect(fake.requests[0].headers.authorization).toBe("Bearer bedrock-api-key-0123456789");
    expect(fake.requests[0].headers["x-amz-date"]).toBeUndefined();
  });

  it("sends tool use back as an object and its result in the next user message, reasoning with its signature", async () => {
    fake.enqueue(stream(framesOf(recorded.reasoningText)));
    await run({
      ...base,
      messages: [
        ...base.messages,
        {
          role: "assistant",
          text: "",
          reasoning: "hm",
          thinkingBlocks: [{ thinking: "hm", signature: "sig1" }],
          toolCalls: [{ id: "functions.read_file:1", name: "read", arguments: '{"path":"a"}' }],
        },
        {
          role: "tool",
          toolCallId: "functions.read_file:1",
          toolName: "read",
          content: [
            { type: "text", text: "A" },
            { type: "image", mediaType: "image/png", data: "iVBO" },
          ],
          isError: false,
        },
      ],
    });
    const messages = fake.requests[0].body.messages;
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { reasoningContent: { reasoningText: { text: "hm", signature: "sig1" } } },
        { toolUse: { toolUseId: "functions.read_file:1", name: "read", input: { path: "a" } } },
      ],
    });
    expect(messages[2].content[0]).toEqual({
      toolResult: {
        toolUseId: "functions.read_file:1",
        content: [{ text: "A" }, { image: { format: "png", source: { bytes: "iVBO" } } }],
        status: "success",
      },
    });
  });
});

describe("bedrock adapter: Claude's thinking", () => {
  const loop = (thinkingBlocks: { thinking: string; signature: string }[]): NormalizedRequest => ({
    ...base,
    thinking: "medium",
    maxOutputTokens: 4000,
    messages: [
      ...base.messages,
      {
        role: "assistant",
        text: "",
        reasoning: "",
        thinkingBlocks,
        toolCalls: [{ id: "t1", name: "read", arguments: "{}" }],
      },
      {
        role: "tool",
        toolCallId: "t1",
        toolName: "read",
        content: [{ type: "text", text: "x" }],
        isError: false,
      },
    ],
  });

  it("asks for thinking with a budget below maxTokens, and drops it for a loop whose answer did not think", async () => {
    fake.enqueue(stream(framesOf(recorded.toolCall)), stream(framesOf(recorded.toolCall)));
    await run(loop([{ thinking: "hm", signature: "sig" }]));
    await run(loop([]));
    const [thinking, plain] = fake.requests.map((r) => r.body);
    expect(thinking.additionalModelRequestFields).toEqual({
      thinking: { type: "enabled", budget_tokens: 2000 },
    });
    expect(thinking.inferenceConfig.maxTokens).toBe(4000);
    expect(plain.additionalModelRequestFields).toBeUndefined();
  });
});

describe("bedrock adapter: streams", () => {
  it("reads a recorded reasoning stream: reasoning and its signature, text, end_turn, usage after the stop", async () => {
    fake.enqueue(stream(framesOf(recorded.reasoningText)));
    const { result } = await run();
    expect(result.reasoning).toBe(
      "Let me count the r's in \"strawberry\":\n\ns-t-r-a-w-b-e-r-r-y\n\nr appears at positions 3, 8, and 9.\n\nSo there are 3 r's.",
    );
    expect(result.thinkingBlocks).toHaveLength(1);
    expect(result.thinkingBlocks[0].signature).toMatch(/^Ep0CCkgICxAB.*GAE=$/);
    expect(result.text).toBe('There are **3** r\'s in "strawberry":\n\n1. st**r**awbe**r****r**y');
    expect(result).toMatchObject({ finish: "stop", rawFinish: "end_turn" });
    expect(result.usage).toEqual({ prompt: 51, completion: 94, cacheRead: 0, cacheWrite: 0 });
  });

  it("reads a recorded tool call whose usage comes before the stop", async () => {
    fake.enqueue(stream(framesOf(recorded.toolCall)));
    const { result } = await run();
    expect(result.toolCalls).toEqual([
      { id: "tool-use-id", name: "test-tool", arguments: '{"value":"Sparkle Day"}' },
    ]);
    expect(result).toMatchObject({ finish: "tool_calls", rawFinish: "tool_use" });
    expect(result.usage).toEqual({ prompt: 125, completion: 45, cacheRead: 0, cacheWrite: 0 });
  });

  it("counts cache reads and writes into the prompt", async () => {
    fake.enqueue(
      stream([
        eventFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "ok" } }),
        eventFrame("messageStop", { stopReason: "end_turn" }),
        eventFrame("metadata", {
          usage: { inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 300, cacheWriteInputTokens: 40 },
        }),
      ]),
    );
    const { result } = await run();
    expect(result.usage).toEqual({ prompt: 350, completion: 5, cacheRead: 300, cacheWrite: 40 });
  });

  it.each([
    ["max_tokens", "length"],
    ["guardrail_intervened", "content_filter"],
    ["content_filtered", "content_filter"],
    ["stop_sequence", "stop"],
    ["something_new", "other:something_new"],
  ])("maps stopReason %s to %s", async (raw, finish) => {
    fake.enqueue(
      stream([eventFrame("messageStop", { stopReason: raw }), eventFrame("metadata", { usage: {} })]),
    );
    const { result } = await run();
    expect(result.finish).toBe(finish);
  });
});

describe("bedrock adapter: errors", () => {
  it("retries a recorded modelStreamErrorException frame", async () => {
    fake.enqueue(stream([Buffer.from(recorded.modelStreamErrorFrameBase64, "base64")]));
    const error = await run().catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("Model Stream Error");
  });

  it("retries a throttling exception mid-stream; a frame with a bad checksum is incomplete", async () => {
    fake.enqueue(stream([exceptionFrame("throttlingException", "Too many tokens, please wait.")]));
    expect(await run().catch((e) => e)).toMatchObject({ retryable: true });
    const frame = eventFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "x" } });
    frame[frame.length - 1] ^= 0xff;
    fake.enqueue(stream([frame]));
    expect(await run().catch((e) => e)).toMatchObject({ errorClass: "incomplete_stream", retryable: true });
  });

  it.each([
    [429, "ThrottlingException", "Too many requests", "rate_limit", true],
    [503, "ServiceUnavailableException", "Service unavailable", "server", true],
    [429, "ModelNotReadyException", "Model is not ready", "rate_limit", true],
    [403, "AccessDeniedException", "You don't have access to the model", "auth", false],
    [400, "ValidationException", "Input is too long for requested model.", "context_overflow", false],
  ])("classifies HTTP %i %s", async (status, type, message, errorClass, retryable) => {
    fake.enqueue({
      status,
      headers: { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
      body: JSON.stringify({ message }),
    });
    expect(await run().catch((e) => e)).toMatchObject({ errorClass, retryable });
  });

  it("fails as an auth error, sending nothing, when the credential chain finds no credentials", async () => {
    const keys = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"] as const;
    const held = keys.map((k) => process.env[k]);
    for (const k of keys) delete process.env[k];
    forgetAwsCredentials();
    try {
      const error = await run().catch((e) => e);
      expect(error).toMatchObject({ errorClass: "auth", retryable: false });
      expect(error.message).toMatch(/^no AWS credentials for Bedrock/);
      expect(fake.requests).toHaveLength(0);
    } finally {
      keys.forEach((k, i) => {
        process.env[k] = held[i];
      });
      forgetAwsCredentials();
    }
  });

  it("never puts the AWS secret or session token in an error", async () => {
    fake.enqueue({ status: 403, body: JSON.stringify({ message: `bad token ${CREDENTIALS.sessionToken}` }) });
    const error = await run().catch((e) => e);
    expect(error.message).not.toContain(CREDENTIALS.sessionToken);
    expect(error.message).not.toContain(CREDENTIALS.secretAccessKey);
  });
});
