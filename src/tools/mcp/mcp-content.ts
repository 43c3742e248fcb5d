// Maps an MCP tool result to tern's ContentPart list, bounded (R-TOOL-6, R-EXT): text is cut to
// the output limit (head and tail kept, the middle elided with a count), images are sent only
// when they are a PNG, JPEG, GIF or WebP within the per-image limit, and everything the model
// cannot take as it is (resource links, binary resources, audio, oversized or unknown images) is
// described by uri, name, type and size instead of vanishing. SVG is text, not an image.
import type { ToolResult } from "../types.js";
import type { ContentPart } from "../../vocab/messages.js";

export interface McpContentLimits {
  /**
   * Characters of text kept from the whole result. The executor's gate cuts further, to
   * `toolOutputLimit`; this bound keeps a runaway result from growing without end before that.
   */
  textChars: number;
  /** Decoded bytes per image: the smallest provider limit (Anthropic, 5 MB), as for prompt images. */
  imageBytes: number;
  /** Images per result; the rest are described. */
  images: number;
}

export const DEFAULT_MCP_LIMITS: McpContentLimits = {
  textChars: 10_000_000,
  imageBytes: 5 * 1024 * 1024,
  images: 8,
};

interface McpContent {
  type?: unknown;
  text?: unknown;
  data?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  name?: unknown;
  title?: unknown;
  description?: unknown;
  size?: unknown;
  resource?: { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Decoded size of base64 text without decoding it. */
function base64Bytes(data: string): number {
  const pad = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The image type the bytes really are (the provider refuses a mislabelled image). */
function sniffImage(data: string): string | undefined {
  const head = Buffer.from(data.slice(0, 24), "base64");
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47) return "image/png";
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (head.length >= 6 && head.subarray(0, 4).toString("latin1") === "GIF8") return "image/gif";
  if (
    head.length >= 12 &&
    head.subarray(0, 4).toString("latin1") === "RIFF" &&
    head.subarray(8, 12).toString("latin1") === "WEBP"
  )
    return "image/webp";
  return undefined;
}

function describe(kind: string, fields: Record<string, string | undefined>): string {
  const named = Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k}: ${v}`);
  return `[${kind}${named.length ? ` — ${named.join(", ")}` : ""}]`;
}

class ResultBuilder {
  readonly parts: ContentPart[] = [];
  private images = 0;

  constructor(private readonly limits: McpContentLimits) {}

  /** Adds a text part; returns true so `add` can end each case with it. */
  text(text: string): true {
    this.parts.push({ type: "text", text });
    return true;
  }

  /** Base64 image data with its declared type: an image part, SVG as text, or a description. */
  image(data: string, declared: string | undefined, origin: Record<string, string | undefined> = {}): true {
    const bytes = base64Bytes(data);
    if (declared === "image/svg+xml") {
      return this.text(
        `${describe("SVG image, as text", { ...origin, size: sizeText(bytes) })}\n${Buffer.from(data, "base64").toString("utf8")}`,
      );
    }
    const actual = sniffImage(data);
    const why =
      actual === undefined
        ? "not a PNG, JPEG, GIF or WebP image"
        : bytes > this.limits.imageBytes
          ? `over the ${sizeText(this.limits.imageBytes)} limit per image`
          : this.images >= this.limits.images
            ? `more than ${this.limits.images} images in one result`
            : undefined;
    if (why) {
      return this.text(
        describe("image not shown", { ...origin, mimeType: declared, size: sizeText(bytes), reason: why }),
      );
    }
    this.images++;
    this.parts.push({ type: "image", mediaType: actual!, data });
    return true;
  }

  add(c: McpContent): true {
    const type = str(c.type) ?? "unknown";
    if (type === "text") return this.text(str(c.text) ?? "");
    if (type === "image" && typeof c.data === "string") return this.image(c.data, str(c.mimeType));
    if (type === "audio") {
      const size = typeof c.data === "string" ? sizeText(base64Bytes(c.data)) : undefined;
      return this.text(describe("audio not shown", { mimeType: str(c.mimeType), size }));
    }
    if (type === "resource_link") {
      return this.text(
        describe("resource link", {
          uri: str(c.uri),
          name: str(c.name),
          title: str(c.title),
          mimeType: str(c.mimeType),
          size: typeof c.size === "number" ? sizeText(c.size) : undefined,
          description: str(c.description),
        }),
      );
    }
    if (type === "resource" && c.resource) {
      const r = c.resource;
      const origin = { uri: str(r.uri), mimeType: str(r.mimeType) };
      if (typeof r.text === "string") return this.text(`${describe("resource", origin)}\n${r.text}`);
      if (typeof r.blob === "string") {
        if (str(r.mimeType)?.startsWith("image/"))
          return this.image(r.blob, str(r.mimeType), { uri: str(r.uri) });
        return this.text(
          describe("binary resource not shown", { ...origin, size: sizeText(base64Bytes(r.blob)) }),
        );
      }
      return this.text(describe("resource", origin));
    }
    return this.text(describe(`${type} content not shown`, {}));
  }

  /** The text parts cut to the limit as one piece: head and tail kept, the middle elided with a count. */
  bounded(): ContentPart[] {
    const limit = this.limits.textChars;
    const texts = this.parts.filter((p) => p.type === "text") as { type: "text"; text: string }[];
    const total = texts.reduce((n, p) => n + p.text.length, 0);
    if (total <= limit) return this.parts;
    const joined = texts.map((p) => p.text).join("\n");
    const head = Math.floor(limit * 0.6);
    const tail = limit - head;
    const elided = joined.length - head - tail;
    const note =
      `\n\n[… ${elided} characters elided: the result had ${joined.length} characters, more than the ${limit}-character limit. ` +
      "Ask the tool for a smaller part (a range, a page or a narrower query) to see the middle.]\n\n";
    const text = `${joined.slice(0, head)}${note}${joined.slice(joined.length - tail)}`;
    return [{ type: "text", text }, ...this.parts.filter((p) => p.type !== "text")];
  }
}

export function mapMcpResult(
  result: { content?: unknown; isError?: unknown; structuredContent?: unknown },
  limits: McpContentLimits = DEFAULT_MCP_LIMITS,
): ToolResult {
  const builder = new ResultBuilder(limits);
  const content = Array.isArray(result.content) ? (result.content as McpContent[]) : [];
  for (const c of content) builder.add(c ?? {});
  if (builder.parts.length === 0 && result.structuredContent !== undefined) {
    builder.text(JSON.stringify(result.structuredContent));
  }
  if (builder.parts.length === 0) builder.text("(no output)");
  return { outcome: result.isError === true ? "error" : "ok", content: builder.bounded() };
}
