// NormalizedRequest → Bedrock Converse request body (R-PROV-14). Converse wants strict user /
// assistant alternation, tool results as `toolResult` blocks of the next user message with the
// call's `toolUseId`, tool input as an object, and reasoning sent back with its signature.
import { imagePlaceholder, thinkingBudget } from "./anthropic-request.js";
import { noteStart } from "./history-bytes.js";
import type { NormalizedRequest } from "./types.js";
import { appendToTurn, toolCallText, toolInputObject, type WireTurn } from "./wire-history.js";
import type { ContentPart, Message, ThinkingBlock } from "../vocab/messages.js";

type Block = Record<string, unknown>;
export type WireMessage = WireTurn<"user" | "assistant", Block>;

const DEFAULT_MAX_TOKENS = 8192;
const CACHE_POINT = { cachePoint: { type: "default" } };

export function bedrockConverseUrl(baseUrl: string, modelId: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/model/${encodeURIComponent(modelId)}/converse-stream`;
}

/** Claude on Bedrock: prompt caching and extended thinking as on Anthropic's own API (R-PROV-7, R-PROV-10). */
const isClaude = (model: string) => /anthropic\.claude|^claude/.test(model);

export function buildBedrockBody(request: NormalizedRequest): Record<string, unknown> {
  const body = bedrockBodyHead(request);
  // With tool blocks in the history Converse needs the tools defined; with none, blocks become text.
  const messages = buildMessages(request.messages, request.images, request.tools.length === 0);
  finishBedrockBody(body, request, messages, messages);
  body.messages = messages;
  return body;
}

/** Every field but `messages` (which comes last). */
export function bedrockBodyHead(request: NormalizedRequest): Record<string, unknown> {
  const claude = isClaude(request.model);
  let maxTokens = request.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  const body: Record<string, unknown> = {};
  const thinking = claude ? thinkingBudget(request.thinking, maxTokens) : undefined;
  if (thinking) {
    maxTokens = thinking.maxTokens;
    body.additionalModelRequestFields = { thinking: { type: "enabled", budget_tokens: thinking.budget } };
  }
  body.inferenceConfig = { maxTokens };
  if (request.system.trim() !== "")
    body.system = [{ text: request.system }, ...(claude ? [CACHE_POINT] : [])];
  if (request.tools.length > 0) body.toolConfig = bedrockToolConfig(request);
  return body;
}

export function bedrockToolConfig(request: NormalizedRequest): Record<string, unknown> {
  return {
    tools: [
      ...request.tools.map((tool) => ({
        toolSpec: {
          name: tool.name,
          description: tool.description,
          inputSchema: { json: tool.parameters },
        },
      })),
      ...(isClaude(request.model) ? [CACHE_POINT] : []),
    ],
  };
}

/**
 * What the newest messages decide: thinking off for a tool loop whose answer did not open with
 * signed reasoning, and Claude's cache point on the last message. `tail`: the last two messages
 * at least; `last` holds the last one.
 */
export function finishBedrockBody(
  body: Record<string, unknown>,
  request: NormalizedRequest,
  tail: readonly WireMessage[],
  last: readonly WireMessage[],
): void {
  if (body.additionalModelRequestFields !== undefined && !toolLoopStartsWithReasoning(tail)) {
    // As on Anthropic's API: a tool loop whose answer did not open with signed reasoning cannot
    // go on with thinking on; this one request goes without (anthropic-request.ts).
    delete body.additionalModelRequestFields;
    body.inferenceConfig = { maxTokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS };
  }
  if (isClaude(request.model)) last.at(-1)?.content.push({ ...CACHE_POINT });
}

function toolLoopStartsWithReasoning(messages: readonly WireMessage[]): boolean {
  const last = messages[messages.length - 1];
  if (last?.role !== "user" || !last.content.some((b) => "toolResult" in b)) return true;
  const assistant = messages[messages.length - 2];
  return assistant?.role !== "assistant" || "reasoningContent" in (assistant.content[0] ?? {});
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
        push("user", [
          { text: `[result of tool call ${message.toolCallId} (${message.toolName})]` },
          ...content,
        ]);
        continue;
      }
      push("user", [
        {
          toolResult: {
            toolUseId: message.toolCallId,
            content: content.length > 0 ? content : [{ text: "" }],
            status: message.isError ? "error" : "success",
          },
        },
      ]);
    } else {
      const blocks: Block[] = (message.thinkingBlocks ?? []).flatMap(reasoningBlock);
      if (message.text.trim() !== "") blocks.push({ text: message.text });
      for (const call of message.toolCalls) {
        blocks.push(
          toolsAsText
            ? { text: toolCallText(call) }
            : { toolUse: { toolUseId: call.id, name: call.name, input: toolInputObject(call.arguments) } },
        );
      }
      push("assistant", blocks);
    }
  }
  return out;
}

function reasoningBlock(block: ThinkingBlock): Block[] {
  if (block.redacted) return [{ reasoningContent: { redactedContent: block.signature } }];
  if (block.signature === "") return [];
  return [{ reasoningContent: { reasoningText: { text: block.thinking, signature: block.signature } } }];
}

function contentBlocks(parts: ContentPart[], images: boolean): Block[] {
  const blocks: Block[] = [];
  for (const part of parts) {
    if (part.type === "text") {
      if (part.text.trim() !== "") blocks.push({ text: part.text });
    } else if (images) {
      const format = part.mediaType.replace(/^image\//, "").replace("jpg", "jpeg");
      blocks.push({ image: { format, source: { bytes: part.data } } });
    } else blocks.push({ text: imagePlaceholder(part) });
  }
  return blocks;
}
