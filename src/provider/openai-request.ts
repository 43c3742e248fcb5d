// NormalizedRequest → OpenAI Chat Completions request body, including the multimodal bridge of
// R-PROV-8 (tool messages cannot carry images, so a user message after the tool run holds them).
import { chatToolId } from "./tool-ids.js";
import type { NormalizedRequest, ProviderCompat } from "./types.js";
import type { ContentPart, ImagePart, Message, ToolResultMessage, ToolSpec } from "../vocab/messages.js";

/** What an endpoint's rules add to the body beyond the normalized request. */
export interface ChatWireOptions {
  maxTokensField: "max_tokens" | "max_completion_tokens";
  /** true / false force the reasoning echo; undefined echoes what arrived as `reasoning_content`. */
  echoReasoning?: boolean;
  /** Send `reasoning_effort` for the thinking level (models the catalogue marks as reasoning). */
  reasoningEffort?: boolean;
}

/**
 * OpenAI's own API wants `max_completion_tokens` (its reasoning models reject `max_tokens`); every
 * compatible server we know reads `max_tokens` (R-PROV-1).
 */
export function chatWireOptions(baseUrl: string, compat: ProviderCompat = {}): ChatWireOptions {
  let host = "";
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {}
  const own = host === "api.openai.com";
  return {
    maxTokensField: compat.maxTokensField ?? (own ? "max_completion_tokens" : "max_tokens"),
    echoReasoning: compat.echoReasoning,
    ...(compat.reasoningEffort ? { reasoningEffort: true } : {}),
  };
}

export const DEFAULT_WIRE: ChatWireOptions = { maxTokensField: "max_tokens" };

export const IMAGE_PLACEHOLDER = "[image omitted: model has no image input]";

type ChatContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
type ChatMessage = Record<string, unknown>;

export function buildChatBody(
  request: NormalizedRequest,
  wire: ChatWireOptions = DEFAULT_WIRE,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: buildMessages(request, wire),
    stream: true,
    stream_options: { include_usage: true },
  };
  Object.assign(body, bodyTail(request, wire));
  return body;
}

/** The fields after `stream_options`, in wire order (the incremental serializer writes the same). */
export function bodyTail(request: NormalizedRequest, wire: ChatWireOptions): Record<string, unknown> {
  const tail: Record<string, unknown> = {};
  if (request.maxOutputTokens !== undefined) tail[wire.maxTokensField] = request.maxOutputTokens;
  // Some compatible servers reject `tools: []`, and OpenAI rejects `tool_choice` without tools.
  if (request.tools.length > 0) {
    tail.tools = chatTools(request.tools);
    if (request.toolChoice) tail.tool_choice = request.toolChoice;
  }
  if (wire.reasoningEffort && request.thinking && request.thinking !== "off")
    tail.reasoning_effort = request.thinking;
  // `strict: false`: strict mode refuses most schemas users write (optional properties); tern validates.
  if (request.responseSchema)
    tail.response_format = {
      type: "json_schema",
      json_schema: { name: "answer", schema: request.responseSchema, strict: false },
    };
  return tail;
}

/** Index of the newest user message: assistant messages after it belong to the current turn. */
export function currentTurnStart(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === "user") return i;
  return -1;
}

/** The wire field to echo this assistant message's reasoning in, or undefined for none (R-PROV-3). */
export function echoField(
  message: Message,
  inCurrentTurn: boolean,
  wire: ChatWireOptions,
): string | undefined {
  if (message.role !== "assistant" || !inCurrentTurn || message.reasoning === "") return undefined;
  if (wire.echoReasoning === false) return undefined;
  if (wire.echoReasoning === true) return message.reasoningField ?? "reasoning_content";
  return message.reasoningField === "reasoning_content" ? "reasoning_content" : undefined;
}

export function chatTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

export function buildMessages(
  request: NormalizedRequest,
  wire: ChatWireOptions = DEFAULT_WIRE,
): ChatMessage[] {
  const out: ChatMessage[] = [];
  const turnStart = currentTurnStart(request.messages);
  if (request.system) out.push({ role: "system", content: request.system });
  // Images of the current run of consecutive tool messages, flushed as one user message after it.
  let bridged: { id: string; images: ImagePart[] }[] = [];
  const flushBridge = () => {
    if (bridged.length === 0) return;
    const content: ChatContentPart[] = [];
    for (const entry of bridged) {
      content.push({ type: "text", text: `Images from tool call ${entry.id}:` });
      for (const image of entry.images) content.push(imagePart(image));
    }
    out.push({ role: "user", content });
    bridged = [];
  };
  request.messages.forEach((message, i) => {
    if (message.role !== "tool") flushBridge();
    const echo = echoField(message, i > turnStart, wire);
    out.push(mapMessage(message, request.images, (id, images) => bridged.push({ id, images }), echo));
  });
  flushBridge();
  return out;
}

export function mapMessage(
  message: Message,
  imagesAllowed: boolean,
  bridge: (toolCallId: string, images: ImagePart[]) => void,
  reasoningEcho?: string,
): ChatMessage {
  switch (message.role) {
    case "user":
      return { role: "user", content: userContent(message.content, imagesAllowed) };
    case "assistant": {
      const out: ChatMessage = {
        role: "assistant",
        content: message.text || (message.toolCalls.length ? null : ""),
      };
      if (reasoningEcho) out[reasoningEcho] = message.reasoning;
      if (message.toolCalls.length > 0) {
        out.tool_calls = message.toolCalls.map((call) => ({
          ...call.extra,
          id: chatToolId(call.id),
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        }));
      }
      return out;
    }
    case "tool":
      return toolMessage(message, imagesAllowed, bridge);
  }
}

function toolMessage(
  message: ToolResultMessage,
  imagesAllowed: boolean,
  bridge: (toolCallId: string, images: ImagePart[]) => void,
): ChatMessage {
  const texts: string[] = [];
  const images: ImagePart[] = [];
  for (const part of message.content) {
    if (part.type === "text") texts.push(part.text);
    else if (imagesAllowed) images.push(part);
    else texts.push(IMAGE_PLACEHOLDER);
  }
  if (images.length > 0) {
    bridge(message.toolCallId, images);
    texts.push(`[${images.length} image(s) follow in the next message]`);
  }
  return { role: "tool", tool_call_id: chatToolId(message.toolCallId), content: texts.join("\n") };
}

/** Plain string content when there is no image: several compatible servers accept nothing else. */
function userContent(parts: ContentPart[], imagesAllowed: boolean): string | ChatContentPart[] {
  const hasImage = imagesAllowed && parts.some((part) => part.type === "image");
  if (!hasImage) {
    return parts.map((part) => (part.type === "text" ? part.text : IMAGE_PLACEHOLDER)).join("\n");
  }
  return parts.map((part) => (part.type === "text" ? { type: "text", text: part.text } : imagePart(part)));
}

function imagePart(image: ImagePart): ChatContentPart {
  return { type: "image_url", image_url: { url: `data:${image.mediaType};base64,${image.data}` } };
}
