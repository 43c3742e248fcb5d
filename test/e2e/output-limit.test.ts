// R-PROV-1 through the built CLI: the output limit comes from models.<id>.maxOutputTokens and is
// sent in the field the server reads (max_tokens for compatible servers, or what
// models.<id>.compat.maxTokensField names, e.g. max_completion_tokens for OpenAI's own API).
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();

describe("the output limit on openai-chat", () => {
  it("sends models.<id>.maxOutputTokens as max_tokens to a compatible server", async () => {
    writeUserConfig(e, { models: { "openai/mock-1": { maxOutputTokens: 1234 } } });
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "hi");
    expect(run.code).toBe(0);
    const body = e.provider.requests[0].body;
    expect(body.max_tokens).toBe(1234);
    expect(body).not.toHaveProperty("max_completion_tokens");
  });

  it("uses the field compat names", async () => {
    writeUserConfig(e, {
      models: {
        "openai/mock-1": { maxOutputTokens: 777, compat: { maxTokensField: "max_completion_tokens" } },
      },
    });
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "hi");
    expect(run.code).toBe(0);
    const body = e.provider.requests[0].body;
    expect(body.max_completion_tokens).toBe(777);
    expect(body).not.toHaveProperty("max_tokens");
  });

  it("refuses an unknown compat field in one line naming the key", async () => {
    writeUserConfig(e, { models: { "openai/mock-1": { compat: { maxTokensField: "max_output" } } } });
    const run = await ternRun(e, [], "hi");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/models.*openai\/mock-1.*compat\.maxTokensField/);
    expect(e.provider.requests).toHaveLength(0);
  });
});
