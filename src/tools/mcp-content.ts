// Maps an MCP tool result to tern's ContentPart list.
import type { ContentPart } from "../provider/types.js";
import type { ToolResult } from "./types.js";

interface McpContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

export function mapMcpResult(result: {
  content?: unknown;
  isError?: unknown;
  structuredContent?: unknown;
}): ToolResult {
  const parts: ContentPart[] = [];
  const content = Array.isArray(result.content) ? (result.content as McpContent[]) : [];
  for (const c of content) {
    if (c.type === "text" && typeof c.text === "string") parts.push({ type: "text", text: c.text });
    else if (c.type === "image" && typeof c.data === "string") {
      parts.push({ type: "image", mediaType: c.mimeType ?? "image/png", data: c.data });
    } else if (c.type === "resource" && typeof c.resource?.text === "string") {
      parts.push({ type: "text", text: c.resource.text });
    } else {
      parts.push({ type: "text", text: `[${c.type} content not shown]` });
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  }
  if (parts.length === 0) parts.push({ type: "text", text: "(no output)" });
  return { outcome: result.isError === true ? "error" : "ok", content: parts };
}
