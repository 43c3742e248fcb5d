// Anthropic Messages stream events → normalized ProviderEvents (wire facts §2). Pure state
// machine: no I/O, so every frame order a server may send can be tested directly.
import { classifyStreamError } from "./classify.js";
import { mapClaudeStop } from "./claude-stop-reasons.js";
import type { FinishReason, ProviderEvent, StreamResult } from "./types.js";
import type { ProviderItem, ThinkingBlock, ToolCall } from "../vocab/messages.js";
import type { Usage } from "../vocab/usage.js";
import { TextBuilder } from "./text-builder.js";

type BlockState =
  | { kind: "text" }
  | { kind: "thinking"; block: ThinkingBlock }
  | { kind: "tool"; call: ToolCall; toolIndex: number; initialInput?: string }
  /** A provider-run tool's call (`server_tool_use`): its input streams like a tool's. */
  | { kind: "hosted"; block: Record<string, unknown>; input: string }
  | { kind: "other" };

interface RawUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

const USAGE_FIELDS = [
  "input_tokens",
  "output_tokens",
  "cache_read_input_tokens",
  "cache_creation_input_tokens",
] as const;

export function mapAnthropicFinish(raw: string): FinishReason {
  return mapClaudeStop(raw, ["refusal"]);
}

export class AnthropicStreamState {
  private readonly blocks = new Map<number, BlockState>();
  private readonly thinkingBlocks: ThinkingBlock[] = [];
  private readonly toolCalls: ToolCall[] = [];
  /** server_tool_use / web_search_tool_result blocks, echoed back exactly (R-PROV-11). */
  private readonly hostedItems: ProviderItem[] = [];
  private webSearches = 0;
  private readonly text = new TextBuilder();
  private readonly reasoning = new TextBuilder();
  private rawFinish: string | null = null;
  private raw: RawUsage | null = null;
  /** `message_stop` arrived: the stream is complete. */
  stopped = false;

  /**
   * `message_delta` carried a stop reason: the answer is whole even if `message_stop` never comes,
   * and sending it again would bill it twice (R-PROV-3).
   */
  get hasStopReason(): boolean {
    return this.rawFinish !== null;
  }

  get stopReason(): string | null {
    return this.rawFinish;
  }

  /** Latest usage snapshot, or null before the server sent any. */
  get usage(): Usage | null {
    if (!this.raw) return null;
    const r = this.raw;
    const usage: Usage = {
      prompt: r.input_tokens + r.cache_read_input_tokens + r.cache_creation_input_tokens,
      completion: r.output_tokens,
      cacheRead: r.cache_read_input_tokens,
      cacheWrite: r.cache_creation_input_tokens,
    };
    if (this.webSearches > 0) usage.webSearches = this.webSearches;
    return usage;
  }

  /** One parsed `data:` payload → the events it produces. Throws a ProviderError for `error`. */
  handle(payload: any, eventName?: string): ProviderEvent[] {
    const type: unknown = payload?.type ?? eventName;
    switch (type) {
      case "message_start":
        return this.mergeUsage(payload.message?.usage);
      case "content_block_start":
        return this.startBlock(payload.index, payload.content_block ?? {});
      case "content_block_delta":
        return this.delta(payload.index, payload.delta ?? {});
      case "content_block_stop":
        return this.stopBlock(payload.index);
      case "message_delta": {
        const reason = payload.delta?.stop_reason;
        if (typeof reason === "string" && reason !== "") this.rawFinish = reason;
        return this.mergeUsage(payload.usage);
      }
      case "message_stop":
        this.stopped = true;
        return [];
      case "error":
        throw classifyStreamError(payload);
      default:
        // ping and event types newer than this code
        return [];
    }
  }

  result(): StreamResult {
    // A tool block that never got its content_block_stop still has the input its start gave.
    for (const state of this.blocks.values())
      if (state.kind === "tool" && state.call.arguments === "")
        state.call.arguments = state.initialInput ?? "{}";
    const finish: FinishReason =
      this.rawFinish !== null
        ? mapAnthropicFinish(this.rawFinish)
        : this.toolCalls.length > 0
          ? "tool_calls"
          : "stop";
    return {
      text: this.text.text(),
      reasoning: this.reasoning.text(),
      thinkingBlocks: this.thinkingBlocks,
      ...(this.hostedItems.length > 0 ? { providerItems: this.hostedItems } : {}),
      toolCalls: this.toolCalls,
      finish,
      rawFinish: this.rawFinish,
      usage: this.usage,
    };
  }

  private startBlock(index: number, block: any): ProviderEvent[] {
    switch (block.type) {
      case "text": {
        this.blocks.set(index, { kind: "text" });
        return this.appendText(block.text);
      }
      case "thinking": {
        // Older servers send no signature on the start block; keep it as "" then.
        const thinking: ThinkingBlock = {
          thinking: "",
          signature: typeof block.signature === "string" ? block.signature : "",
        };
        this.thinkingBlocks.push(thinking);
        this.blocks.set(index, { kind: "thinking", block: thinking });
        return this.appendThinking(thinking, block.thinking);
      }
      case "redacted_thinking": {
        this.thinkingBlocks.push({ thinking: "", signature: String(block.data ?? ""), redacted: true });
        this.blocks.set(index, { kind: "other" });
        return [];
      }
      case "tool_use": {
        const call: ToolCall = { id: String(block.id ?? ""), name: String(block.name ?? ""), arguments: "" };
        const toolIndex = this.toolCalls.length;
        this.toolCalls.push(call);
        const input = block.input;
        const initialInput =
          input && typeof input === "object" && Object.keys(input).length > 0
            ? JSON.stringify(input)
            : undefined;
        this.blocks.set(index, { kind: "tool", call, toolIndex, initialInput });
        return [{ type: "tool_call_start", index: toolIndex, id: call.id, name: call.name }];
      }
      case "server_tool_use": {
        const { input, ...rest } = block;
        const initial =
          input && typeof input === "object" && Object.keys(input).length > 0 ? JSON.stringify(input) : "";
        this.blocks.set(index, { kind: "hosted", block: rest, input: initial });
        return [{ type: "hosted_tool", name: "web_search", status: "started", detail: "" }];
      }
      case "web_search_tool_result":
        this.hostedItems.push({ api: "anthropic-messages", item: block });
        this.blocks.set(index, { kind: "other" });
        return [];
      default:
        this.blocks.set(index, { kind: "other" });
        return [];
    }
  }

  private delta(index: number, delta: any): ProviderEvent[] {
    const state = this.blocks.get(index);
    switch (delta.type) {
      case "text_delta":
        return this.appendText(delta.text);
      case "thinking_delta":
        return state?.kind === "thinking" ? this.appendThinking(state.block, delta.thinking) : [];
      case "signature_delta":
        if (state?.kind === "thinking" && typeof delta.signature === "string")
          state.block.signature = delta.signature;
        return [];
      case "input_json_delta": {
        if (state?.kind === "hosted" && typeof delta.partial_json === "string") {
          state.input += delta.partial_json;
          return [];
        }
        if (state?.kind !== "tool" || typeof delta.partial_json !== "string" || delta.partial_json === "")
          return [];
        state.call.arguments += delta.partial_json;
        return [{ type: "tool_call_delta", index: state.toolIndex, argumentsDelta: delta.partial_json }];
      }
      default:
        return [];
    }
  }

  private stopBlock(index: number): ProviderEvent[] {
    const state = this.blocks.get(index);
    if (state?.kind === "hosted") return this.stopHosted(state);
    if (state?.kind !== "tool" || state.call.arguments !== "") return [];
    // No input_json_delta: the input came whole on the start block, or the tool takes no arguments.
    state.call.arguments = state.initialInput ?? "{}";
    return [{ type: "tool_call_delta", index: state.toolIndex, argumentsDelta: state.call.arguments }];
  }

  private stopHosted(state: { block: Record<string, unknown>; input: string }): ProviderEvent[] {
    let input: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(state.input || "{}");
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) input = parsed;
    } catch {}
    this.hostedItems.push({ api: "anthropic-messages", item: { ...state.block, input } });
    const query = typeof input.query === "string" ? input.query : "";
    return [{ type: "hosted_tool", name: "web_search", status: "done", detail: query }];
  }

  private appendText(text: unknown): ProviderEvent[] {
    if (typeof text !== "string" || text === "") return [];
    this.text.add(text);
    return [{ type: "text_delta", text }];
  }

  private appendThinking(block: ThinkingBlock, text: unknown): ProviderEvent[] {
    if (typeof text !== "string" || text === "") return [];
    block.thinking += text;
    this.reasoning.add(text);
    return [{ type: "reasoning_delta", text }];
  }

  /** Usage counts are cumulative (message_delta repeats and updates them): keep the largest, never add. */
  private mergeUsage(usage: any): ProviderEvent[] {
    if (!usage || typeof usage !== "object") return [];
    const searches = usage.server_tool_use?.web_search_requests;
    if (typeof searches === "number" && searches > this.webSearches) this.webSearches = searches;
    const next: RawUsage = this.raw
      ? { ...this.raw }
      : { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    let seen = false;
    for (const field of USAGE_FIELDS) {
      const value = usage[field];
      if (typeof value === "number" && Number.isFinite(value)) {
        seen = true;
        next[field] = Math.max(next[field], value);
      }
    }
    if (!seen) return [];
    this.raw = next;
    return [{ type: "usage", usage: this.usage! }];
  }
}
