// ACP prompt content blocks → tern message content: text as text, images as images (checked
// against the provider's size limit as `--image` files are), embedded text resources as text
// naming their URI, resource links as `@uri` mentions. Audio is refused: no tern model takes it.
import * as acp from "@agentclientprotocol/sdk";
import { sniffImageType } from "../commands/prompt-input.js";
import { IMAGE_LIMIT_BYTES } from "../config/image-limits.js";
import type { ProviderApi } from "../config/types.js";
import type { SessionCommand } from "../engine/session.js";

type ContentPart = Extract<SessionCommand, { type: "prompt" }>["content"][number];

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export function promptContent(blocks: acp.ContentBlock[], api: ProviderApi): ContentPart[] {
  const parts: ContentPart[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push({ type: "text", text: block.text });
        break;
      case "image": {
        if (!IMAGE_TYPES.has(block.mimeType))
          throw acp.RequestError.invalidParams(
            undefined,
            `image: ${block.mimeType} is not PNG, JPEG, GIF or WebP`,
          );
        // The bytes decide the type: a provider refuses an image whose declared type is wrong.
        const actual = sniffImageType(Buffer.from(block.data.slice(0, 24), "base64"));
        if (!actual)
          throw acp.RequestError.invalidParams(
            undefined,
            `image: the data is not a PNG, JPEG, GIF or WebP image (declared ${block.mimeType})`,
          );
        const bytes = Math.floor((block.data.length * 3) / 4);
        // The same limit per image as `--image` (config/image-limits.ts).
        const limit = IMAGE_LIMIT_BYTES[api];
        if (bytes > limit)
          throw acp.RequestError.invalidParams(
            undefined,
            `image: ${(bytes / 1024 / 1024).toFixed(1)} MB is over the provider's ${limit / 1024 / 1024} MB limit per image`,
          );
        parts.push({ type: "image", mediaType: actual, data: block.data });
        break;
      }
      case "resource": {
        const res = block.resource;
        if ("text" in res)
          parts.push({ type: "text", text: `<file uri="${res.uri}">\n${res.text}\n</file>` });
        else parts.push({ type: "text", text: `@${res.uri}` });
        break;
      }
      case "resource_link":
        parts.push({ type: "text", text: `@${block.uri}` });
        break;
      default:
        throw acp.RequestError.invalidParams(undefined, `${block.type} content is not supported`);
    }
  }
  return parts;
}

/** The prompt's text, for recognising a slash command. */
export function promptText(parts: ContentPart[]): string {
  return parts
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("\n");
}
