// NormalizedRequest → Anthropic Messages request body. Anthropic needs strict user/assistant
// alternation, tool results inside user messages, no empty text blocks, and signed thinking
// blocks echoed back verbatim; prompt-cache breakpoints follow R-PROV-7.
import type { ContentPart, Message, NormalizedRequest, ThinkingBlock } from "./types.js";

export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

type Block = Record<string, unknown> & { type: string };
interface WireMessage {
  role: "user" | "assistant";
  content: Block[];
}

const CACHE = { type: "ephemeral" } as const;

export function imagePlaceholder(part: { mediaType: string; ref?: string }): string {
  return `[image${part.ref ? ` ${part.ref}` : ""} (${part.mediaType}) omitted: this model does not accept image input]`;
}

export function buildAnthropicBody(request: NormalizedRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    stream: true,
  };
  if (request.system.trim() !== "") {
    body.system = [{ type: "text", text: request.system, cache_control: CACHE }];
  }
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool, i) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
      ...(i === request.tools.length - 1 ? { cache_control: CACHE } : {}),
    }));
    // The definitions stay (a history holding tool blocks needs them) while no call is allowed.
    if (request.toolChoice === "none") body.tool_choice = { type: "none" };
  }
  // Anthropic refuses tool_use / tool_result blocks in a request without tools: with none
  // defined (a side question), earlier calls and results travel as plain text (R-SIDE-1).
  const toolsAsText = request.tools.length === 0;
  const messages = buildMessages(request.messages, request.images, toolsAsText);
  markLastMessageForCache(messages);
  body.messages = messages;
  return body;
}

function buildMessages(messages: Message[], images: boolean, toolsAsText: boolean): WireMessage[] {
  const out: WireMessage[] = [];
  // Appending to the previous message of the same role keeps the alternation Anthropic
  // requires: tool results of one assistant message, and a prompt right after them, share one
  // user message; an assistant message with nothing sendable disappears without a gap.
  const push = (role: WireMessage["role"], content: Block[]) => {
    if (content.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...content);
    else out.push({ role, content });
  };
  for (const message of messages) {
    if (message.role === "user") push("user", contentBlocks(message.content, images));
    else if (message.role === "tool") {
      const content = contentBlocks(message.content, images);
      if (toolsAsText) {
        const head = `[result of tool call ${message.toolCallId} (${message.toolName})${message.isError ? ", an error" : ""}]`;
        push("user", [{ type: "text", text: head }, ...content]);
        continue;
      }
      push("user", [
        {
          type: "tool_result",
          tool_use_id: message.toolCallId,
          ...(content.length > 0 ? { content } : {}),
          is_error: message.isError,
        },
      ]);
    } else {
      const blocks: Block[] = (message.thinkingBlocks ?? []).flatMap(thinkingBlock);
      if (message.text !== "") blocks.push({ type: "text", text: message.text });
      for (const call of message.toolCalls) {
        if (toolsAsText) {
          blocks.push({ type: "text", text: `[tool call ${call.id}: ${call.name} ${call.arguments}]` });
        } else {
          blocks.push({ type: "tool_use", id: call.id, name: call.name, input: parseInput(call.arguments) });
        }
      }
      push("assistant", blocks);
    }
  }
  return out;
}

function thinkingBlock(block: ThinkingBlock): Block[] {
  if (block.redacted) return [{ type: "redacted_thinking", data: block.signature }];
  // Without a signature the API rejects the block; older servers never sent one, so drop it.
  if (block.signature === "") return [];
  return [{ type: "thinking", thinking: block.thinking, signature: block.signature }];
}

function contentBlocks(parts: ContentPart[], images: boolean): Block[] {
  const blocks: Block[] = [];
  for (const part of parts) {
    if (part.type === "text") {
      if (part.text !== "") blocks.push({ type: "text", text: part.text });
    } else if (images) {
      blocks.push({ type: "image", source: { type: "base64", media_type: part.mediaType, data: part.data } });
    } else {
      blocks.push({ type: "text", text: imagePlaceholder(part) });
    }
  }
  return blocks;
}

/** The model's raw argument text → the `input` object; anything not a JSON object becomes `{}`. */
function parseInput(raw: string): Record<string, unknown> {
  try {
    const value = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function markLastMessageForCache(messages: WireMessage[]): void {
  const last = messages[messages.length - 1];
  if (!last) return;
  // Thinking blocks cannot carry cache_control; the breakpoint goes on the last block that can.
  for (let i = last.content.length - 1; i >= 0; i--) {
    const block = last.content[i];
    if (block.type === "thinking" || block.type === "redacted_thinking") continue;
    last.content[i] = { ...block, cache_control: CACHE };
    return;
  }
}
