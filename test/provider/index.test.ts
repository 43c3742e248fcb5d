import { describe, expect, it } from "vitest";
import { createAdapter } from "../../src/provider/index.js";

describe("createAdapter", () => {
  it("chooses the adapter by endpoint.api", () => {
    expect(createAdapter({ api: "openai-chat", baseUrl: "http://127.0.0.1:1/v1", headers: {} }).api).toBe(
      "openai-chat",
    );
    expect(
      createAdapter({ api: "anthropic-messages", baseUrl: "http://127.0.0.1:1/v1", headers: {} }).api,
    ).toBe("anthropic-messages");
  });

  it("refuses an unknown api", () => {
    expect(() => createAdapter({ api: "nope" as any, baseUrl: "http://x", headers: {} })).toThrow(
      /unknown provider api/,
    );
  });
});
