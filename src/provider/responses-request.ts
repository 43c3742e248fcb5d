// NormalizedRequest → OpenAI Responses request body (R-PROV-9). Stateless: `store: false`, the
// whole history as `input` items, reasoning carried forward as `encrypted_content`.
import { toolCallText, toolResultHead } from "./wire-history.js";
import { imagePlaceholder } from "./anthropic-request.js";
import { responsesCallId } from "./tool-ids.js";
import type { NormalizedRequest, ProviderCompat } from "./types.js";
import type { ContentPart, Message, ProviderItem } from "../vocab/messages.js";

export type Item = Record<string, unknown>;

/** `input`: the history's items when already built (responses-body.ts keeps them between rounds). */
export function buildResponsesBody(
  request: NormalizedRequest,
  compat: ProviderCompat = {},
  input?: Item[],
): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model, stream: true, store: false };
  if (compat.encryptedReasoning !== false) body.include = ["reasoning.encrypted_content"];
  if (request.system.trim() !== "") body.instructions = request.system;
  // Side questions send no tools: earlier calls and results then travel as text (R-SIDE-1).
  const toolsAsText = request.tools.length === 0;
  // A model known not to reason refuses reasoning items too (a session that switched to it).
  const reasoningItems = compat.encryptedReasoning !== false;
  body.input = input ?? buildInput(request.messages, request.images, toolsAsText, reasoningItems);
  const tools = responsesTools(request);
  if (request.hostedTools?.includes("web_search")) tools.push({ type: "web_search" });
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice) body.tool_choice = request.toolChoice;
  }
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.thinking && request.thinking !== "off") {
    // "auto" streams summaries of the reasoning as `response.reasoning_summary_text.delta`.
    body.reasoning = { effort: request.thinking, summary: "auto" };
  }
  if (request.cacheKey) body.prompt_cache_key = request.cacheKey;
  if (request.responseSchema)
    body.text = {
      format: { type: "json_schema", name: "answer", schema: request.responseSchema, strict: false },
    };
  return body;
}

/**
 * `strict` defaults to true on this API, which refuses any schema outside its strict subset (MCP
 * servers' schemas, optional properties): tern's tools are validated by tern.
 */
export function responsesTools(request: NormalizedRequest): Item[] {
  return request.tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  }));
}

/** The input items of `messages[from..]` (each message's items stand alone: none merge). */
export function buildInput(
  messages: readonly Message[],
  images: boolean,
  toolsAsText: boolean,
  reasoningItems = true,
  from = 0,
): Item[] {
  const out: Item[] = [];
  for (let index = from; index < messages.length; index++) {
    const message = messages[index];
    if (message.role === "user") {
      const content = inputContent(message.content, images);
      if (content.length > 0) out.push({ role: "user", content });
    } else if (message.role === "tool") {
      const output = toolOutput(message.content, images);
      if (toolsAsText) {
        const head = toolResultHead(message);
        out.push({ role: "user", content: [{ type: "input_text", text: head }, ...asContent(output)] });
      } else {
        out.push({ type: "function_call_output", call_id: responsesCallId(message.toolCallId), output });
      }
    } else {
      // Reasoning and hosted-tool items go back exactly, before the text and calls they preceded.
      if (!toolsAsText) out.push(...echoedItems(message.providerItems, reasoningItems));
      if (message.text !== "") {
        out.push({
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: message.text }],
        });
      }
      for (const call of message.toolCalls) {
        if (toolsAsText) {
          out.push({
            type: "message",
            role: "assistant",
            content: [
              {
                type: "output_text",
                text: toolCallText(call),
              },
            ],
          });
        } else {
          const callId = responsesCallId(call.id);
          out.push({ type: "function_call", call_id: callId, name: call.name, arguments: call.arguments });
        }
      }
    }
  }
  return out;
}

/**
 * Items of this protocol only, without their server ids: with `store: false` the server keeps
 * nothing, and an id it cannot find is refused ("Items are not persisted…").
 */
function echoedItems(items: readonly ProviderItem[] | undefined, reasoningItems: boolean): Item[] {
  const out: Item[] = [];
  for (const entry of items ?? []) {
    if (entry.api !== "openai-responses") continue;
    const { id: _id, ...rest } = entry.item;
    if (rest.type === "reasoning" && !reasoningItems) continue;
    // A reasoning item without its encrypted content refers to server state that does not exist.
    if (rest.type === "reasoning" && typeof rest.encrypted_content !== "string") continue;
    out.push(rest);
  }
  return out;
}

function inputContent(parts: readonly ContentPart[], images: boolean): Item[] {
  const out: Item[] = [];
  for (const part of parts) {
    if (part.type === "text") {
      if (part.text !== "") out.push({ type: "input_text", text: part.text });
    } else if (images) {
      out.push({ type: "input_image", image_url: `data:${part.mediaType};base64,${part.data}` });
    } else {
      out.push({ type: "input_text", text: imagePlaceholder(part) });
    }
  }
  return out;
}

/** A plain string when the result is text only; a list of input parts when it holds images. */
function toolOutput(parts: readonly ContentPart[], images: boolean): string | Item[] {
  if (!images || !parts.some((part) => part.type === "image")) {
    return parts.map((part) => (part.type === "text" ? part.text : imagePlaceholder(part))).join("\n");
  }
  return inputContent(parts, images);
}

function asContent(output: string | Item[]): Item[] {
  if (typeof output !== "string") return output;
  return output === "" ? [] : [{ type: "input_text", text: output }];
}
