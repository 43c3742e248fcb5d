// NormalizedRequest → Gemini generateContent request body (Gemini API and Vertex AI share it,
// R-PROV-12/13). Gemini wants `user` / `model` contents, tool results as `functionResponse` parts
// of a user content matched to their call by name and order (and `id` when the call had one), and
// every thought signature sent back on the part that carried it, exactly as received.
import { imagePlaceholder } from "./anthropic-request.js";
import { noteStart } from "./history-bytes.js";
import type { NormalizedRequest } from "./types.js";
import {
  appendToTurn,
  toolCallText,
  toolInputObject,
  toolResultHead,
  type WireTurn,
} from "./wire-history.js";
import type { ThinkingLevel } from "../vocab/levels.js";
import type { AssistantMessage, ContentPart, Message, ToolCall } from "../vocab/messages.js";

type Part = Record<string, unknown>;
export interface Content {
  role: "user" | "model";
  parts: Part[];
}

/** What a Gemini function call keeps in `ToolCall.extra` to go back as it came. */
export interface GeminiCallExtra {
  gemini: { thoughtSignature?: string; id?: string };
}

/**
 * Google's documented stand-in for a function call that did not come from Gemini (a model switch
 * mid-session): Gemini 3 refuses a replayed call without a signature, and accepts this one.
 */
export const FOREIGN_CALL_SIGNATURE = "skip_thought_signature_validator";

const THINKING_BUDGET: Record<Exclude<ThinkingLevel, "off">, number> = {
  low: 2048,
  medium: 8192,
  high: 24576,
};

/** `contents`: the history when already built (gemini-body.ts keeps it between rounds). */
export function buildGeminiBody(request: NormalizedRequest, contents?: Content[]): Record<string, unknown> {
  // With no tools defined (a side question) earlier calls and results travel as text, as on the
  // Anthropic wire: a function part needs its declaration.
  const toolsAsText = request.tools.length === 0;
  const body: Record<string, unknown> = {
    contents: contents ?? buildContents(request.messages, request.images, toolsAsText),
  };
  if (request.system.trim() !== "") body.systemInstruction = { parts: [{ text: request.system }] };
  if (request.tools.length > 0) {
    body.tools = geminiTools(request);
    if (request.toolChoice === "none") body.toolConfig = { functionCallingConfig: { mode: "NONE" } };
  }
  const generation: Record<string, unknown> = {};
  if (request.maxOutputTokens !== undefined) generation.maxOutputTokens = request.maxOutputTokens;
  if (request.thinking && request.thinking !== "off") {
    // Gemini 3 takes a level, Gemini 2.5 a token budget (R-PROV-10).
    generation.thinkingConfig = /gemini-3/.test(request.model)
      ? { includeThoughts: true, thinkingLevel: request.thinking === "low" ? "low" : "high" }
      : { includeThoughts: true, thinkingBudget: THINKING_BUDGET[request.thinking] };
  }
  if (request.responseSchema) {
    generation.responseMimeType = "application/json";
    generation.responseJsonSchema = request.responseSchema;
  }
  if (Object.keys(generation).length > 0) body.generationConfig = generation;
  return body;
}

export function geminiTools(request: NormalizedRequest): Record<string, unknown>[] {
  return [
    {
      functionDeclarations: request.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        // Full JSON Schema (`parameters` takes only Google's OpenAPI subset).
        parametersJsonSchema: tool.parameters,
      })),
    },
  ];
}

/**
 * The contents of `messages[from..]`; `starts` gets the index each one started at. `wireIds`: a
 * call's Gemini id (when it had one) for its functionResponse, kept from earlier messages.
 */
export function buildContents(
  messages: readonly Message[],
  images: boolean,
  toolsAsText: boolean,
  from = 0,
  starts: number[] = [],
  wireIds = new Map<string, string>(),
): Content[] {
  // Consecutive contents of one role are merged: a turn's tool results share one user content.
  const turns: WireTurn<Content["role"], Part>[] = [];
  const push = (role: Content["role"], parts: Part[]) => {
    appendToTurn(turns, role, parts);
    noteStart(starts, turns, index);
  };
  let index = from;
  for (; index < messages.length; index++) {
    const message = messages[index];
    if (message.role === "user") push("user", contentParts(message.content, images));
    else if (message.role === "tool") {
      const text = message.content
        .filter((part) => part.type === "text")
        .map((part) => part.text)
        .join("\n");
      if (toolsAsText) {
        push("user", [{ text: toolResultHead(message) }, ...contentParts(message.content, images)]);
        continue;
      }
      const id = wireIds.get(message.toolCallId);
      const response = message.isError ? { error: text } : { output: text };
      const imagesOnly = message.content.filter((part) => part.type === "image");
      push("user", [
        { functionResponse: { ...(id ? { id } : {}), name: message.toolName, response } },
        ...contentParts(imagesOnly, images),
      ]);
    } else {
      for (const call of message.toolCalls) {
        const id = geminiExtra(call)?.id;
        if (id) wireIds.set(call.id, id);
      }
      push("model", toolsAsText ? textParts(message) : modelParts(message));
    }
  }
  return turns.map(({ role, content }) => ({ role, parts: content }));
}

/** An assistant message as Gemini parts: its own parts as received when it came from Gemini. */
function modelParts(message: AssistantMessage): Part[] {
  const parts: Part[] = [];
  const kept = (message.providerItems ?? []).filter((entry) => entry.api === "google-gemini");
  if (kept.length > 0) for (const entry of kept) parts.push({ ...entry.item });
  else if (message.text.trim() !== "") parts.push({ text: message.text });
  for (const call of message.toolCalls) {
    const extra = geminiExtra(call);
    const part: Part = {
      functionCall: {
        ...(extra?.id ? { id: extra.id } : {}),
        name: call.name,
        args: toolInputObject(call.arguments),
      },
    };
    if (extra?.thoughtSignature) part.thoughtSignature = extra.thoughtSignature;
    // Only the first call of a parallel batch carries Gemini's signature; a call from another
    // provider gets the documented stand-in on the first call of its message.
    else if (!extra && call === message.toolCalls[0]) part.thoughtSignature = FOREIGN_CALL_SIGNATURE;
    parts.push(part);
  }
  return parts;
}

function textParts(message: AssistantMessage): Part[] {
  const parts: Part[] = message.text.trim() !== "" ? [{ text: message.text }] : [];
  for (const call of message.toolCalls) parts.push({ text: toolCallText(call) });
  return parts;
}

export function geminiExtra(call: ToolCall): GeminiCallExtra["gemini"] | undefined {
  const extra = call.extra?.gemini;
  return extra && typeof extra === "object" ? (extra as GeminiCallExtra["gemini"]) : undefined;
}

function contentParts(parts: ContentPart[], images: boolean): Part[] {
  const out: Part[] = [];
  for (const part of parts) {
    if (part.type === "text") {
      if (part.text !== "") out.push({ text: part.text });
    } else if (images) out.push({ inlineData: { mimeType: part.mediaType, data: part.data } });
    else out.push({ text: imagePlaceholder(part) });
  }
  return out;
}
