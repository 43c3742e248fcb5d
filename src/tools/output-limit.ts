// R-TOOL-6: the one gate every tool result passes (built-in, MCP, argument errors alike) before
// it is recorded, shown or sent. Secrets are redacted by value, text is capped with head and tail
// kept and a hint on how to read the rest, and images are held to the provider's per-image limit.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { redactDeep } from "../config/secrets.js";
import type { ToolResult } from "./types.js";
import type { ContentPart } from "../vocab/messages.js";

export interface OutputLimits {
  /** Characters of text per result (`toolOutputLimit`). */
  maxChars: number;
  /** Decoded bytes per image (the provider's per-image limit). */
  maxImageBytes: number;
  /** Where a capped output is saved in full (a folder under the session); absent = not saved. */
  fullOutputDir?: string;
}

/** The media types both providers accept as images; anything else (SVG too) is not sent as one. */
const SENDABLE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export function limitResult(
  result: ToolResult,
  limits: OutputLimits,
  callId: string,
  tool: string,
): ToolResult {
  const content = (redactDeep(result.content) as ContentPart[]).map((p) => limitImage(p, limits));
  const texts = content.filter((p) => p.type === "text");
  const total = texts.reduce((n, p) => n + p.text.length, 0);
  if (total <= limits.maxChars) return { ...result, content };
  const full = texts.map((p) => p.text).join("\n");
  const images = content.filter((p) => p.type === "image");
  const text = elideMiddle(full, limits.maxChars, readRestHint(full, limits, callId, tool));
  return { ...result, content: [{ type: "text", text }, ...images] };
}

function limitImage(part: ContentPart, limits: OutputLimits): ContentPart {
  if (part.type !== "image" || !part.data) return part;
  if (!SENDABLE_IMAGES.has(part.mediaType))
    return {
      type: "text",
      text: `[image of type ${part.mediaType} not sent: only PNG, JPEG, GIF and WebP are]`,
    };
  const bytes = Math.floor((part.data.length * 3) / 4);
  if (bytes <= limits.maxImageBytes) return part;
  const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
  return {
    type: "text",
    text: `[image not sent: ${mb(bytes)} MB is over the provider's ${mb(limits.maxImageBytes)} MB limit per image]`,
  };
}

/** Head and tail of `text` in `max` characters, the middle replaced by a count and `hint`. */
export function elideMiddle(text: string, max: number, hint: string): string {
  const marker = (n: number) => `\n… [${n} characters elided; ${hint}] …\n`;
  const room = Math.max(0, max - marker(text.length).length);
  const head = text.slice(0, Math.ceil(room / 2));
  const tail = text.slice(text.length - Math.floor(room / 2));
  return `${head}${marker(text.length - head.length - tail.length)}${tail}`;
}

function readRestHint(full: string, limits: OutputLimits, callId: string, tool: string): string {
  if (tool === "read_file") return "read the rest with read_file offset/limit";
  if (tool === "recall") return "recall a single round to see less at once";
  const saved = saveFullOutput(full, limits.fullOutputDir, callId);
  return saved
    ? `the full output is in ${saved}; read it with read_file offset/limit or grep it`
    : "narrow the command or request to see less at once";
}

function saveFullOutput(full: string, dir: string | undefined, callId: string): string | undefined {
  if (!dir) return undefined;
  let file: string | undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    file = join(dir, `${Date.now()}-${callId.replace(/[^\w-]/g, "_").slice(0, 80)}.txt`);
    writeFileSync(file, full, { mode: 0o600 });
    return file;
  } catch {
    // A full disk: no half file left claiming to be the whole output.
    if (file) rmSync(file, { force: true });
    return undefined;
  }
}
