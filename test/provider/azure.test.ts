// Azure OpenAI v1 (R-PROV-15), resolved from AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_API_KEY and run
// against a real HTTP server on 127.0.0.1: `{endpoint}/openai/v1/chat/completions` (or
// `/responses`), the key in `api-key` and never as a Bearer token, the deployment as `model`, and
// Azure's frames (a first frame of prompt_filter_results with no choices, wire facts 1c).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { resolveModel } from "../../src/config/resolve.js";
import { createAdapter } from "../../src/provider/index.js";
import type { NormalizedRequest } from "../../src/provider/types.js";
import { FakeProvider, sseData } from "../support/fake-provider.js";
import { openaiStream } from "../support/openai-script.js";
import { responsesStream } from "../support/responses-script.js";

const KEY = "az-0123456789abcdef0123456789abcdef";
let fake: FakeProvider;
beforeEach(async () => {
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

function azureModel(deployment: string) {
  const env = { AZURE_OPENAI_ENDPOINT: `${fake.url}/`, AZURE_OPENAI_API_KEY: KEY };
  return resolveModel({ ...defaultConfig(), model: `azure/${deployment}` }, env).model;
}

async function run(deployment: string) {
  const model = azureModel(deployment);
  const request: NormalizedRequest = {
    model: model.name,
    system: "sys",
    tools: [],
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    images: false,
  };
  const events = [];
  const adapter = createAdapter(model.endpoint);
  for await (const e of adapter.stream(request, {
    signal: new AbortController().signal,
    idleTimeoutMs: 5000,
  }))
    events.push(e);
  return events.at(-1) as any;
}

describe("azure/<deployment>", () => {
  it("speaks Chat Completions at /openai/v1 with the key in api-key", async () => {
    const built = openaiStream()
      .text("hello")
      .finish("stop")
      .usage({ prompt_tokens: 4, completion_tokens: 1 })
      .build();
    const promptFilter = sseData({
      choices: [],
      created: 0,
      id: "",
      model: "",
      object: "",
      prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }],
    });
    fake.enqueue({ ...built, frames: [promptFilter, ...(built.frames ?? [])] });
    const done = await run("my-gpt4o");
    expect(done.result.text).toBe("hello");
    const sent = fake.requests[0];
    expect(sent.path).toBe("/openai/v1/chat/completions");
    expect(sent.headers["api-key"]).toBe(KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body.model).toBe("my-gpt4o");
  });

  it("speaks Responses for a GPT-5 deployment", async () => {
    fake.enqueue(responsesStream().text("hi").usage({ input_tokens: 3, output_tokens: 1 }).build());
    const done = await run("gpt-5");
    expect(done.result.text).toBe("hi");
    expect(fake.requests[0].path).toBe("/openai/v1/responses");
    expect(fake.requests[0].headers["api-key"]).toBe(KEY);
    expect(fake.requests[0].body.model).toBe("gpt-5");
  });
});
