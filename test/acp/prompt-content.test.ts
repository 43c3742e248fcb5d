// ACP image blocks are held to the same per-API limit as `--image` files: 5 MB for Anthropic,
// 20 MB for both OpenAI protocols (Chat Completions and Responses alike).
import { describe, expect, it } from "vitest";
import { promptContent } from "../../src/acp/prompt-content.js";

/** The first bytes of a PNG and of a JPEG, base64 (what the type is sniffed from). */
const PNG_HEAD = "iVBORw0KGgoAAAANSUhEUgAA";
const JPEG_HEAD = "/9j/4AAQSkZJRgABAQAAAQAB";

/** A PNG image block whose base64 decodes to `mb` megabytes. */
const imageOf = (mb: number) => ({
  type: "image" as const,
  mimeType: "image/png",
  data: PNG_HEAD + "A".repeat(Math.ceil((mb * 1024 * 1024 * 4) / 3) - PNG_HEAD.length),
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

  it("sends an image as the type its bytes are, and refuses data that is no image", () => {
    const jpegAsPng = { type: "image" as const, mimeType: "image/png", data: `${JPEG_HEAD}AAAA` };
    expect(promptContent([jpegAsPng], "anthropic-messages")).toEqual([
      { type: "image", mediaType: "image/jpeg", data: jpegAsPng.data },
    ]);
    const text = {
      type: "image" as const,
      mimeType: "image/png",
      data: Buffer.from("hello, not an image").toString("base64"),
    };
    expect(() => promptContent([text], "openai-chat")).toThrow(
      "image: the data is not a PNG, JPEG, GIF or WebP image (declared image/png)",
    );
  });
});
