// ACP image blocks are held to the same per-API limit as `--image` files: 5 MB for Anthropic,
// 20 MB for both OpenAI protocols (Chat Completions and Responses alike).
import { describe, expect, it } from "vitest";
import { promptContent } from "../../src/acp/prompt-content.js";

/** An image block whose base64 decodes to `mb` megabytes. */
const imageOf = (mb: number) => ({
  type: "image" as const,
  mimeType: "image/png",
  data: "A".repeat(Math.ceil((mb * 1024 * 1024 * 4) / 3)),
});

describe("ACP prompt images", () => {
  it("takes a 6 MB image on both OpenAI protocols", () => {
    for (const api of ["openai-chat", "openai-responses"] as const)
      expect(promptContent([imageOf(6)], api)).toHaveLength(1);
  });

  it("refuses it for Anthropic, naming the size and the limit", () => {
    expect(() => promptContent([imageOf(6)], "anthropic-messages")).toThrow(
      "image: 6.0 MB is over the provider's 5 MB limit per image",
    );
  });

  it("refuses anything over 20 MB on OpenAI", () => {
    expect(() => promptContent([imageOf(21)], "openai-responses")).toThrow(
      /21\.0 MB is over the provider's 20 MB/,
    );
  });
});
