// Bedrock ConverseStream events (already decoded from AWS event-stream frames) → normalized
// ProviderEvents (R-PROV-14, wire facts "Bedrock"). Pure state machine: no I/O. `metadata` (usage)
// may come before or after `messageStop`; some streams have no `messageStart` and no
// `contentBlockStart` for text; reasoning text and its signature arrive as separate deltas.
import { classifyStreamError } from "./classify.js";
import { mapClaudeStop } from "./claude-stop-reasons.js";
import { ProviderError } from "./errors.js";
import { TextBuilder } from "./text-builder.js";
import type { FinishReason, ProviderEvent, StreamResult } from "./types.js";
import type { ThinkingBlock, ToolCall } from "../vocab/messages.js";
import type { Usage } from "../vocab/usage.js";

export function mapBedrockStop(raw: string): FinishReason {
  return mapClaudeStop(raw, ["guardrail_intervened", "content_filtered"]);
}

/** Converse usage: inputTokens leave the cache out, so the prompt is the sum of all three. */
export function bedrockUsage(usage: Record<string, unknown>): Usage {
  const n = (key: string) => (typeof usage[key] === "number" ? (usage[key] as number) : 0);
  const cacheRead = n("cacheReadInputTokens");
  const cacheWrite = n("cacheWriteInputTokens");
  return {
    prompt: n("inputTokens") + cacheRead + cacheWrite,
    completion: n("outputTokens"),
    cacheRead,
    cacheWrite,
  };
}

/** In-stream exceptions are retried (R-PROV-14), except a refused input: too long is an overflow. */
export function bedrockException(type: string, body: string): ProviderError {
  let message = body;
  try {
    const parsed = JSON.parse(body);
    if (typeof parsed?.message === "string") message = parsed.message;
    else if (typeof parsed?.Message === "string") message = parsed.Message;
  } catch {}
  if (/^validation/i.test(type)) {
    return classifyStreamError({ error: { message, type: "invalid_request_error" } }, 400);
  }
  const error = classifyStreamError({ error: { message: `${type}: ${message}`, type } });
  if (error.retryable) return error;
  return new ProviderError({ errorClass: "incomplete_stream", retryable: true, message: error.message });
}

type Block = { kind: "text" } | { kind: "tool"; index: number } | { kind: "reasoning"; block: ThinkingBlock };

export class BedrockStreamState {
  private readonly text = new TextBuilder();
  private readonly reasoning = new TextBuilder();
  private readonly calls: ToolCall[] = [];
  private readonly thinking: ThinkingBlock[] = [];
  private readonly blocks = new Map<number, Block>();
  private stopReason: string | null = null;
  private usage: Usage | null = null;
  sawMetadata = false;

  get hasFinish(): boolean {
    return this.stopReason !== null;
  }

  /** The answer is whole and its usage has come: nothing more to read. */
  get complete(): boolean {
    return this.stopReason !== null && this.sawMetadata;
  }

  get latestUsage(): Usage | null {
    return this.usage;
  }

  *handle(eventType: string, payload: any): Generator<ProviderEvent, void, void> {
    const index = typeof payload?.contentBlockIndex === "number" ? payload.contentBlockIndex : 0;
    if (eventType === "contentBlockStart") {
      const tool = payload?.start?.toolUse;
      if (tool) {
        const call: ToolCall = {
          id: String(tool.toolUseId ?? ""),
          name: String(tool.name ?? ""),
          arguments: "",
        };
        this.blocks.set(index, { kind: "tool", index: this.calls.length });
        this.calls.push(call);
        yield { type: "tool_call_start", index: this.calls.length - 1, id: call.id, name: call.name };
      }
    } else if (eventType === "contentBlockDelta") {
      yield* this.delta(index, payload?.delta ?? {});
    } else if (eventType === "messageStop") {
      this.stopReason = typeof payload?.stopReason === "string" ? payload.stopReason : "end_turn";
    } else if (eventType === "metadata") {
      this.sawMetadata = true;
      if (payload?.usage && typeof payload.usage === "object") {
        this.usage = bedrockUsage(payload.usage);
        yield { type: "usage", usage: this.usage };
      }
    }
  }

  private *delta(index: number, delta: any): Generator<ProviderEvent, void, void> {
    if (typeof delta.text === "string") {
      if (delta.text === "") return;
      this.text.add(delta.text);
      yield { type: "text_delta", text: delta.text };
    } else if (delta.toolUse) {
      const block = this.blocks.get(index);
      if (block?.kind !== "tool") return;
      const piece = typeof delta.toolUse.input === "string" ? delta.toolUse.input : "";
      this.calls[block.index].arguments += piece;
      if (piece !== "") yield { type: "tool_call_delta", index: block.index, argumentsDelta: piece };
    } else if (delta.reasoningContent) {
      const reasoning = delta.reasoningContent;
      let block = this.blocks.get(index);
      if (block?.kind !== "reasoning") {
        block = { kind: "reasoning", block: { thinking: "", signature: "" } };
        this.blocks.set(index, block);
        this.thinking.push(block.block);
      }
      if (typeof reasoning.text === "string" && reasoning.text !== "") {
        block.block.thinking += reasoning.text;
        this.reasoning.add(reasoning.text);
        yield { type: "reasoning_delta", text: reasoning.text };
      }
      if (typeof reasoning.signature === "string") block.block.signature += reasoning.signature;
      if (typeof reasoning.redactedContent === "string") {
        block.block.redacted = true;
        block.block.signature = reasoning.redactedContent;
      }
    }
  }

  result(): StreamResult {
    const raw = this.stopReason;
    // Tool input arrives as string fragments; an empty one means no arguments.
    for (const call of this.calls) if (call.arguments === "") call.arguments = "{}";
    let finish: FinishReason = raw === null ? "stop" : mapBedrockStop(raw);
    if (finish === "stop" && this.calls.length > 0) finish = "tool_calls";
    return {
      text: this.text.text(),
      reasoning: this.reasoning.text(),
      thinkingBlocks: this.thinking.filter((b) => b.signature !== "" || b.redacted),
      toolCalls: this.calls,
      finish,
      rawFinish: raw,
      usage: this.usage,
    };
  }
}
