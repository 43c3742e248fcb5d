// NormalizedRequest → OpenAI Chat Completions request body, including the multimodal bridge of
// R-PROV-8 (tool messages cannot carry images, so a user message after the tool run holds them).
import type {
  ContentPart,
  ImagePart,
  Message,
  NormalizedRequest,
  ToolResultMessage,
  ToolSpec,
} from "./types.js";

export const IMAGE_PLACEHOLDER = "[image omitted: model has no image input]";

type ChatContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
type ChatMessage = Record<string, unknown>;

export function buildChatBody(request: NormalizedRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: buildMessages(request),
    stream: true,
    stream_options: { include_usage: true },
  };
  // Some compatible servers reject `tools: []`. No max-token field on purpose: servers apply their
  // own default, and OpenAI's reasoning models reject `max_tokens`.
  if (request.tools.length > 0) body.tools = chatTools(request.tools);
  return body;
}

export function chatTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

export function buildMessages(request: NormalizedRequest): ChatMessage[] {
  const out: ChatMessage[] = [];
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
  for (const message of request.messages) {
    if (message.role !== "tool") flushBridge();
    out.push(mapMessage(message, request.images, (id, images) => bridged.push({ id, images })));
  }
  flushBridge();
  return out;
}

export function mapMessage(
  message: Message,
  imagesAllowed: boolean,
  bridge: (toolCallId: string, images: ImagePart[]) => void,
): ChatMessage {
  switch (message.role) {
    case "user":
      return { role: "user", content: userContent(message.content, imagesAllowed) };
    case "assistant": {
      const out: ChatMessage = {
        role: "assistant",
        content: message.text || (message.toolCalls.length ? null : ""),
      };
      if (message.toolCalls.length > 0) {
        out.tool_calls = message.toolCalls.map((call) => ({
          ...call.extra,
          id: call.id,
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
  return { role: "tool", tool_call_id: message.toolCallId, content: texts.join("\n") };
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
