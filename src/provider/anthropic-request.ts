// NormalizedRequest → Anthropic Messages request body. Anthropic needs strict user/assistant
// alternation, tool results inside user messages, no empty text blocks, and signed thinking
// blocks echoed back verbatim; prompt-cache breakpoints follow R-PROV-7.
import { noteStart } from "./history-bytes.js";
import { anthropicToolId } from "./tool-ids.js";
import type { NormalizedRequest } from "./types.js";
import {
  appendToTurn,
  toolCallText,
  toolInputObject,
  toolResultHead,
  type WireTurn,
} from "./wire-history.js";
import type { ThinkingLevel } from "../vocab/levels.js";
import type { ContentPart, Message, ThinkingBlock } from "../vocab/messages.js";

export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

type Block = Record<string, unknown> & { type: string };
export type WireMessage = WireTurn<"user" | "assistant", Block>;

const CACHE = { type: "ephemeral" } as const;

export function imagePlaceholder(part: { mediaType: string; ref?: string }): string {
  return `[image${part.ref ? ` ${part.ref}` : ""} (${part.mediaType}) omitted: this model does not accept image input]`;
}

/** The API's smallest thinking budget. */
export const MIN_THINKING_BUDGET = 1024;
const THINKING_TARGET: Record<Exclude<ThinkingLevel, "off">, { tokens: number; share: number }> = {
  low: { tokens: 4096, share: 0.25 },
  medium: { tokens: 16384, share: 0.5 },
  high: { tokens: 32768, share: 0.75 },
};

/**
 * R-PROV-10: the thinking budget for a level and the `max_tokens` to send with it. The budget is
 * the level's target capped at a growing share of the output limit, at least the API's minimum,
 * and always below `max_tokens` (raised to leave room for an answer when the limit is tiny).
 */
export function thinkingBudget(
  level: ThinkingLevel | undefined,
  maxTokens: number,
): { budget: number; maxTokens: number } | undefined {
  if (!level || level === "off") return undefined;
  const target = THINKING_TARGET[level];
  const budget = Math.max(MIN_THINKING_BUDGET, Math.min(target.tokens, Math.floor(maxTokens * target.share)));
  return { budget, maxTokens: Math.max(maxTokens, budget + MIN_THINKING_BUDGET) };
}

/** Anthropic's web search server tool version this code speaks. */
export const WEB_SEARCH_TOOL = { type: "web_search_20250305", name: "web_search" } as const;

export function buildAnthropicBody(request: NormalizedRequest): Record<string, unknown> {
  const body = anthropicBodyHead(request);
  // Anthropic refuses tool_use / tool_result blocks in a request without tools: with none
  // defined (a side question), earlier calls and results travel as plain text (R-SIDE-1).
  const messages = buildMessages(request.messages, request.images, request.tools.length === 0);
  markLastMessageForCache(messages);
  if (!toolLoopStartsWithThinking(messages)) dropThinking(body, request);
  body.messages = messages;
  return body;
}

/** Every field but `messages` (which comes last). */
export function anthropicBodyHead(request: NormalizedRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    stream: true,
  };
  const thinking = thinkingBudget(request.thinking, body.max_tokens as number);
  if (thinking) {
    // Temperature stays unset: the API refuses any but the default with thinking on.
    body.max_tokens = thinking.maxTokens;
    body.thinking = { type: "enabled", budget_tokens: thinking.budget };
  }
  if (request.system.trim() !== "") {
    body.system = [{ type: "text", text: request.system, cache_control: CACHE }];
  }
  const hosted = request.hostedTools?.includes("web_search") ? [{ ...WEB_SEARCH_TOOL }] : [];
  if (request.tools.length > 0 || hosted.length > 0) {
    body.tools = [...anthropicTools(request), ...hosted];
    // The definitions stay (a history holding tool blocks needs them) while no call is allowed.
    if (request.toolChoice === "none") body.tool_choice = { type: "none" };
  }
  return body;
}

export function anthropicTools(request: NormalizedRequest): Record<string, unknown>[] {
  return request.tools.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters,
    ...(i === request.tools.length - 1 ? { cache_control: CACHE } : {}),
  }));
}

/**
 * A tool loop answered by a model that did not think (thinking was off, or another model)
 * cannot continue with thinking on: the API wants its assistant message to open with a
 * thinking block. This one request goes without; the next turn thinks again.
 */
export function dropThinking(body: Record<string, unknown>, request: NormalizedRequest): void {
  if (body.thinking === undefined) return;
  delete body.thinking;
  body.max_tokens = request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
}

/** Whether the request continues a tool loop whose assistant message opens with a thinking block (or none runs). */
export function toolLoopStartsWithThinking(messages: readonly WireMessage[]): boolean {
  const last = messages[messages.length - 1];
  if (last?.role !== "user" || !last.content.some((b) => b.type === "tool_result")) return true;
  const assistant = messages[messages.length - 2];
  if (assistant?.role !== "assistant") return true;
  const first = assistant.content[0]?.type;
  return first === "thinking" || first === "redacted_thinking";
}

/** The wire messages of `messages[from..]`; `starts` gets the index each one started at. */
export function buildMessages(
  messages: readonly Message[],
  images: boolean,
  toolsAsText: boolean,
  from = 0,
  starts: number[] = [],
): WireMessage[] {
  const out: WireMessage[] = [];
  const push = (role: WireMessage["role"], content: Block[]) => {
    appendToTurn(out, role, content);
    noteStart(starts, out, index);
  };
  let index = from;
  for (; index < messages.length; index++) {
    const message = messages[index];
    if (message.role === "user") push("user", contentBlocks(message.content, images));
    else if (message.role === "tool") {
      const content = contentBlocks(message.content, images);
      if (toolsAsText) {
        push("user", [{ type: "text", text: toolResultHead(message) }, ...content]);
        continue;
      }
      push("user", [
        {
          type: "tool_result",
          tool_use_id: anthropicToolId(message.toolCallId),
          ...(content.length > 0 ? { content } : {}),
          is_error: message.isError,
        },
      ]);
    } else {
      const blocks: Block[] = (message.thinkingBlocks ?? []).flatMap(thinkingBlock);
      // Provider-run search blocks go back exactly; without tools defined they cannot be sent at all.
      if (!toolsAsText) {
        for (const entry of message.providerItems ?? [])
          if (entry.api === "anthropic-messages") blocks.push({ ...entry.item } as Block);
      }
      // A blank answer ("\n\n" before a call) is refused: "text content blocks must contain non-whitespace text".
      if (message.text.trim() !== "") blocks.push({ type: "text", text: message.text });
      for (const call of message.toolCalls) {
        if (toolsAsText) {
          blocks.push({ type: "text", text: toolCallText(call) });
        } else {
          const id = anthropicToolId(call.id);
          blocks.push({ type: "tool_use", id, name: call.name, input: toolInputObject(call.arguments) });
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
      if (part.text.trim() !== "") blocks.push({ type: "text", text: part.text });
    } else if (images) {
      blocks.push({ type: "image", source: { type: "base64", media_type: part.mediaType, data: part.data } });
    } else {
      blocks.push({ type: "text", text: imagePlaceholder(part) });
    }
  }
  return blocks;
}

export function markLastMessageForCache(messages: WireMessage[]): void {
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
