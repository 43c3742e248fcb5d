// OpenAI Responses stream events → normalized ProviderEvents (R-PROV-9). Pure state machine: no
// I/O, so every event order a server may send can be tested directly.
import { classifyStreamError } from "./classify.js";
import type { ProviderError } from "./errors.js";
import type { FinishReason, ProviderEvent, StreamResult } from "./types.js";
import type { ProviderItem, ToolCall } from "../vocab/messages.js";
import type { Usage } from "../vocab/usage.js";
import { TextBuilder } from "./text-builder.js";

interface CallSlot {
  call: ToolCall;
  index: number;
}

export class ResponsesStreamState {
  private readonly text = new TextBuilder();
  private readonly reasoning = new TextBuilder();
  private readonly calls: CallSlot[] = [];
  /** Function-call slots by item id and by output index (deltas name either). */
  private readonly callsByItem = new Map<string, CallSlot>();
  private readonly callsByOutput = new Map<number, CallSlot>();
  /** Items to echo back, by output index so they keep the server's order. */
  private readonly items = new Map<number, Record<string, unknown>>();
  /** Output items whose text or summary streamed as deltas (their `done` must not repeat it). */
  private readonly streamed = new Set<string>();
  private webSearches = 0;
  private rawFinish: string | null = null;
  private finish: FinishReason | null = null;
  private raw: Usage | null = null;

  /** `response.completed` or `response.incomplete` arrived: the stream is whole. */
  get complete(): boolean {
    return this.finish !== null;
  }

  get usage(): Usage | null {
    if (!this.raw) return null;
    return this.webSearches > 0 ? { ...this.raw, webSearches: this.webSearches } : this.raw;
  }

  /** One parsed `data:` payload → its events. Throws a ProviderError for `error` / `response.failed`. */
  handle(payload: any, eventName?: string): ProviderEvent[] {
    const type: unknown = payload?.type ?? eventName;
    switch (type) {
      case "response.output_item.added":
        return this.itemAdded(payload.output_index, payload.item ?? {});
      case "response.output_item.done":
        return this.itemDone(payload.output_index, payload.item ?? {});
      case "response.output_text.delta":
      case "response.refusal.delta":
        // A refusal is the answer the user sees.
        return this.appendText(payload.delta, payload);
      case "response.reasoning_summary_part.added":
        // Summary parts are paragraphs of one summary.
        return payload.summary_index > 0 ? this.appendReasoning("\n\n", payload) : [];
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        return this.appendReasoning(payload.delta, payload);
      case "response.function_call_arguments.delta":
        return this.argumentsDelta(payload);
      case "response.function_call_arguments.done":
        return this.argumentsDone(payload);
      case "response.web_search_call.searching":
        return [];
      case "response.completed":
        return this.end(payload.response, "completed");
      case "response.incomplete":
        return this.end(payload.response, "incomplete");
      case "response.failed": {
        const error = payload.response?.error ?? { message: "the response failed" };
        this.readUsage(payload.response?.usage);
        throw withUsage(classifyStreamError(error), this.usage);
      }
      case "error":
        throw withUsage(classifyStreamError(payload), this.usage);
      default:
        return [];
    }
  }

  result(): StreamResult {
    // A call whose arguments never came takes none (`{}`), as on the other protocols.
    const toolCalls = this.calls.map((slot) =>
      slot.call.arguments === "" ? { ...slot.call, arguments: "{}" } : slot.call,
    );
    const providerItems: ProviderItem[] = [...this.items.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, item]) => ({ api: "openai-responses", item }));
    let finish = this.finish ?? "stop";
    if (finish === "stop" && toolCalls.length > 0) finish = "tool_calls";
    return {
      text: this.text.text(),
      reasoning: this.reasoning.text(),
      thinkingBlocks: [],
      ...(providerItems.length > 0 ? { providerItems } : {}),
      toolCalls,
      finish,
      rawFinish: this.rawFinish,
      usage: this.usage,
    };
  }

  private itemAdded(outputIndex: number, item: any): ProviderEvent[] {
    if (item.type === "function_call") {
      const slot = this.openCall(outputIndex, item);
      return [{ type: "tool_call_start", index: slot.index, id: slot.call.id, name: slot.call.name }];
    }
    if (item.type === "web_search_call") {
      return [{ type: "hosted_tool", name: "web_search", status: "started", detail: "" }];
    }
    return [];
  }

  private itemDone(outputIndex: number, item: any): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    switch (item.type) {
      case "function_call": {
        let slot = this.callsByItem.get(String(item.id)) ?? this.callsByOutput.get(outputIndex);
        if (!slot) {
          slot = this.openCall(outputIndex, item);
          events.push({ type: "tool_call_start", index: slot.index, id: slot.call.id, name: slot.call.name });
        }
        events.push(...this.wholeArguments(slot, item.arguments));
        if (slot.call.arguments === "") slot.call.arguments = "{}";
        return events;
      }
      case "reasoning": {
        this.items.set(outputIndex, item);
        if (this.wasStreamed("reasoning", item, outputIndex)) return [];
        const summary = Array.isArray(item.summary)
          ? item.summary.map((part: any) => (typeof part?.text === "string" ? part.text : "")).join("\n\n")
          : "";
        return this.appendReasoning(summary, undefined);
      }
      case "web_search_call": {
        this.items.set(outputIndex, item);
        this.webSearches++;
        const query = typeof item.action?.query === "string" ? item.action.query : "";
        return [{ type: "hosted_tool", name: "web_search", status: "done", detail: query }];
      }
      case "message": {
        if (this.wasStreamed("text", item, outputIndex) || !Array.isArray(item.content)) return [];
        const text = item.content
          .map((part: any) => (typeof part?.text === "string" ? part.text : (part?.refusal ?? "")))
          .join("");
        return this.appendText(text, undefined);
      }
      default:
        // Other hosted items the server added: echoed back as they are.
        if (typeof item.type === "string") this.items.set(outputIndex, item);
        return [];
    }
  }

  private openCall(outputIndex: number, item: any): CallSlot {
    const call: ToolCall = {
      id: String(item.call_id ?? item.id ?? ""),
      name: String(item.name ?? ""),
      arguments: "",
    };
    const slot = { call, index: this.calls.length };
    this.calls.push(slot);
    if (item.id !== undefined) this.callsByItem.set(String(item.id), slot);
    if (typeof outputIndex === "number") this.callsByOutput.set(outputIndex, slot);
    return slot;
  }

  private argumentsDelta(payload: any): ProviderEvent[] {
    const slot =
      this.callsByItem.get(String(payload.item_id)) ?? this.callsByOutput.get(payload.output_index);
    if (!slot || typeof payload.delta !== "string" || payload.delta === "") return [];
    slot.call.arguments += payload.delta;
    return [{ type: "tool_call_delta", index: slot.index, argumentsDelta: payload.delta }];
  }

  /** `function_call_arguments.done` carries the whole arguments, even when no item `done` follows. */
  private argumentsDone(payload: any): ProviderEvent[] {
    const slot =
      this.callsByItem.get(String(payload.item_id)) ?? this.callsByOutput.get(payload.output_index);
    return slot ? this.wholeArguments(slot, payload.arguments) : [];
  }

  /** The whole arguments win over fragments that may have been lost; only the missing tail streams. */
  private wholeArguments(slot: CallSlot, value: unknown): ProviderEvent[] {
    const whole = typeof value === "string" ? value : "";
    if (whole === "" || whole === slot.call.arguments) return [];
    const events: ProviderEvent[] = [];
    if (whole.startsWith(slot.call.arguments)) {
      const rest = whole.slice(slot.call.arguments.length);
      events.push({ type: "tool_call_delta", index: slot.index, argumentsDelta: rest });
    }
    slot.call.arguments = whole;
    return events;
  }

  /** `delta` is the event the text streamed in (undefined for the whole text of a `done` item). */
  private appendText(text: unknown, delta?: any): ProviderEvent[] {
    if (typeof text !== "string" || text === "") return [];
    this.markStreamed("text", delta);
    this.text.add(text);
    return [{ type: "text_delta", text }];
  }

  private appendReasoning(text: unknown, delta?: any): ProviderEvent[] {
    if (typeof text !== "string" || text === "") return [];
    this.markStreamed("reasoning", delta);
    this.reasoning.add(text);
    return [{ type: "reasoning_delta", text }];
  }

  /**
   * Deltas name their item by id, by output index, or (some compatible servers) by neither: any
   * of the three marks the item's text as streamed, so its `done` does not show it twice.
   */
  private markStreamed(kind: "text" | "reasoning", delta: any): void {
    if (!delta) return;
    if (delta.item_id !== undefined) this.streamed.add(`id:${delta.item_id}`);
    if (typeof delta.output_index === "number") this.streamed.add(`out:${delta.output_index}`);
    if (delta.item_id === undefined && typeof delta.output_index !== "number")
      this.streamed.add(`any:${kind}`);
  }

  private wasStreamed(kind: "text" | "reasoning", item: any, outputIndex: unknown): boolean {
    const byName = this.streamed.has(`id:${item.id}`) || this.streamed.has(`out:${outputIndex}`);
    // Deltas that named nothing belong to the next item of their kind that is done.
    const unnamed = this.streamed.delete(`any:${kind}`);
    return byName || unnamed;
  }

  private end(response: any, status: "completed" | "incomplete"): ProviderEvent[] {
    const events = this.readUsage(response?.usage);
    if (status === "completed") {
      this.rawFinish = "completed";
      this.finish = "stop";
    } else {
      const reason = String(response?.incomplete_details?.reason ?? "incomplete");
      this.rawFinish = reason;
      this.finish =
        reason === "max_output_tokens"
          ? "length"
          : reason === "content_filter"
            ? "content_filter"
            : `other:${reason}`;
    }
    return events;
  }

  private readUsage(usage: any): ProviderEvent[] {
    if (!usage || typeof usage !== "object") return [];
    const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
    // `input_tokens` includes the cached ones and `output_tokens` the reasoning ones (R-PROV-6).
    this.raw = {
      prompt: num(usage.input_tokens),
      completion: num(usage.output_tokens),
      cacheRead: num(usage.input_tokens_details?.cached_tokens),
      cacheWrite: 0,
    };
    return [{ type: "usage", usage: this.usage! }];
  }
}

function withUsage(error: ProviderError, usage: Usage | null): ProviderError {
  if (usage && !error.usage) error.usage = usage;
  return error;
}
