// Folds OpenAI-compatible `chat.completion.chunk` frames into normalized events and one
// StreamResult, tolerating every server quirk of wire-facts §1 (R-PROV-2…6).
import { ToolCallAccumulator } from "./accumulator.js";
import { classifyStreamError } from "./classify.js";
import { ProviderError } from "./errors.js";
import type { FinishReason, ProviderEvent, StreamResult } from "./types.js";
import type { ReasoningField } from "../vocab/messages.js";
import type { Usage } from "../vocab/usage.js";
import { TextBuilder } from "./text-builder.js";

export class ChatStreamState {
  private readonly text = new TextBuilder();
  private readonly reasoning = new TextBuilder();
  private reasoningField: ReasoningField | undefined;
  private rawFinish: string | null = null;
  private sawDone = false;
  private usage: Usage | null = null;
  private readonly calls = new ToolCallAccumulator();

  constructor(private readonly status: number) {}

  get latestUsage(): Usage | null {
    return this.usage;
  }

  /** `[DONE]` arrived: nothing after it counts, so reading can stop. */
  get sawTerminator(): boolean {
    return this.sawDone;
  }

  /** A finish reason arrived: the answer is whole even if the connection then dies (R-PROV-3). */
  get hasFinish(): boolean {
    return this.rawFinish !== null;
  }

  /** Handles one SSE `data` payload; throws ProviderError for in-stream errors and unparsable frames. */
  handleData(data: string, eventName?: string): ProviderEvent[] {
    if (this.sawDone) return [];
    const trimmed = data.trim();
    if (trimmed === "") return [];
    if (trimmed === "[DONE]") {
      this.sawDone = true;
      return [];
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(trimmed);
    } catch {
      throw new ProviderError({
        errorClass: "incomplete_stream",
        retryable: true,
        message: `the provider sent a stream frame that is not valid JSON: ${trimmed.slice(0, 80)}`,
      });
    }
    if (!isObject(chunk)) {
      // Gemini-style errors come as an array of error objects, in a stream frame too.
      if (Array.isArray(chunk) && chunk.some((item) => isObject(item) && item.error !== undefined))
        throw classifyStreamError(chunk, this.status);
      return [];
    }
    if (
      eventName === "error" ||
      (chunk.error !== undefined && chunk.error !== null) ||
      chunk.object === "error"
    ) {
      throw classifyStreamError(chunk, this.status);
    }
    const events: ProviderEvent[] = [];
    this.readUsage(chunk, events);
    const choice = candidateZero(chunk.choices);
    if (choice) this.readChoice(choice, chunk, events);
    return events;
  }

  /** Ends the stream: a finish reason or `[DONE]` makes it complete; otherwise it was cut off. */
  finish(): ProviderEvent[] {
    if (this.rawFinish === null && !this.sawDone) {
      throw new ProviderError({
        errorClass: "incomplete_stream",
        retryable: true,
        message: "the stream ended without a finish reason or [DONE]",
      });
    }
    const events: ProviderEvent[] = [...this.calls.flush()];
    const toolCalls = this.calls.calls();
    const result: StreamResult = {
      text: this.text.text(),
      reasoning: this.reasoning.text(),
      thinkingBlocks: [],
      ...(this.reasoningField ? { reasoningField: this.reasoningField } : {}),
      toolCalls,
      finish: normalizeFinish(this.rawFinish, toolCalls.length > 0),
      rawFinish: this.rawFinish,
      usage: this.usage,
    };
    events.push({ type: "done", result });
    return events;
  }

  private readChoice(
    choice: Record<string, unknown>,
    chunk: Record<string, unknown>,
    events: ProviderEvent[],
  ): void {
    // Some servers put a whole `message` in a stream chunk instead of a `delta`.
    const delta = isObject(choice.delta)
      ? choice.delta
      : isObject(choice.message)
        ? choice.message
        : undefined;
    if (delta) {
      // Some servers send both fields with the same text; prefer one, never both.
      const fromContentField = nonEmpty(delta.reasoning_content);
      const reasoning = fromContentField ?? nonEmpty(delta.reasoning);
      if (reasoning) {
        this.reasoningField ??= fromContentField ? "reasoning_content" : "reasoning";
        this.addReasoning(reasoning, events);
      }
      if (Array.isArray(delta.content)) this.readContentParts(delta.content, events);
      else this.addText(nonEmpty(delta.content), events);
      // A refusal is the answer the user must see (R-PROV-3); it arrives instead of content.
      this.addText(nonEmpty(delta.refusal), events);
      if (Array.isArray(delta.tool_calls)) {
        for (const call of delta.tool_calls) if (isObject(call)) events.push(...this.applyToolCall(call));
      }
      if (isObject(delta.function_call)) {
        const fn = delta.function_call;
        events.push(...this.calls.apply({ index: 0, name: str(fn.name), arguments: str(fn.arguments) }));
      }
    }
    const finish = nonEmpty(choice.finish_reason);
    if (finish === "error")
      throw classifyStreamError(chunk.error ?? { message: "finish_reason: error" }, this.status);
    // DeepSeek cut the answer short for lack of server capacity: a server error, retried like a 5xx.
    if (finish === "insufficient_system_resource")
      throw classifyStreamError({ type: "server_error", message: `finish_reason: ${finish}` });
    if (finish) this.rawFinish = finish;
  }

  /** Mistral's content parts: `{type:"text", text}` and `{type:"thinking", thinking: string | parts}`. */
  private readContentParts(parts: unknown[], events: ProviderEvent[]): void {
    for (const part of parts) {
      if (!isObject(part)) continue;
      if (part.type === "text") this.addText(nonEmpty(part.text), events);
      else if (part.type === "thinking") this.addReasoning(partsText(part.thinking), events);
    }
  }

  private addText(text: string | undefined, events: ProviderEvent[]): void {
    if (!text) return;
    this.text.add(text);
    events.push({ type: "text_delta", text });
  }

  private addReasoning(text: string | undefined, events: ProviderEvent[]): void {
    if (!text) return;
    this.reasoning.add(text);
    events.push({ type: "reasoning_delta", text });
  }

  private applyToolCall(call: Record<string, unknown>) {
    const fn = isObject(call.function) ? call.function : {};
    return this.calls.apply({
      index: typeof call.index === "number" ? call.index : undefined,
      id: str(call.id),
      name: str(fn.name),
      arguments: argumentsText(fn.arguments),
      extra: call.extra_content !== undefined ? { extra_content: call.extra_content } : undefined,
    });
  }

  private readUsage(chunk: Record<string, unknown>, events: ProviderEvent[]): void {
    const xGroq = isObject(chunk.x_groq) ? chunk.x_groq.usage : undefined;
    const usage = normalizeUsage(chunk.usage) ?? normalizeUsage(xGroq);
    if (!usage || sameUsage(usage, this.usage)) return;
    this.usage = usage;
    events.push({ type: "usage", usage });
  }
}

/** R-PROV-5. `rawFinish === null` means the stream sent none (or only `""`). */
export function normalizeFinish(rawFinish: string | null, hasCalls: boolean): FinishReason {
  if (rawFinish === null) return hasCalls ? "tool_calls" : "stop";
  switch (rawFinish) {
    // Gateways in front of Anthropic models pass its stop reasons through unchanged.
    case "stop":
    case "end_turn":
    case "stop_sequence":
      return hasCalls ? "tool_calls" : "stop";
    case "tool_calls":
    case "function_call":
    case "tool_use":
      return "tool_calls";
    case "length":
    case "max_tokens":
      return "length";
    case "content_filter":
    case "refusal":
      return "content_filter";
    default:
      return `other:${rawFinish}`;
  }
}

/** R-PROV-6 for OpenAI-compatible usage objects. */
export function normalizeUsage(value: unknown): Usage | null {
  if (!isObject(value)) return null;
  const prompt = num(value.prompt_tokens);
  const completion = num(value.completion_tokens);
  if (prompt === undefined && completion === undefined) return null;
  const details = isObject(value.prompt_tokens_details) ? value.prompt_tokens_details : {};
  return {
    prompt: prompt ?? 0,
    completion: (completion ?? 0) + unbilledReasoning(value, prompt ?? 0, completion ?? 0),
    // Moonshot (Kimi) puts `cached_tokens` on the usage object itself.
    cacheRead:
      num(details.cached_tokens) ?? num(value.prompt_cache_hit_tokens) ?? num(value.cached_tokens) ?? 0,
    // OpenRouter reports prompt-cache writes (Anthropic models), priced apart from plain input.
    cacheWrite: num(details.cache_write_tokens) ?? 0,
  };
}

/**
 * Reasoning tokens that `completion_tokens` leaves out although they are billed as output (R-PROV-6).
 * OpenAI and DeepSeek count them inside `completion_tokens` (total = prompt + completion); xAI does
 * not (total = prompt + completion + reasoning). The total tells which convention a server follows.
 */
function unbilledReasoning(value: Record<string, unknown>, prompt: number, completion: number): number {
  const details = isObject(value.completion_tokens_details) ? value.completion_tokens_details : {};
  const reasoning = num(details.reasoning_tokens) ?? 0;
  const total = num(value.total_tokens);
  if (reasoning <= 0 || total === undefined) return 0;
  return total === prompt + completion + reasoning ? reasoning : 0;
}

/** Text of a thinking part's `thinking`: a string, or a list of `{type:"text", text}` parts. */
function partsText(value: unknown): string | undefined {
  if (typeof value === "string") return nonEmpty(value);
  if (!Array.isArray(value)) return undefined;
  const text = value
    .map((part) => (isObject(part) && typeof part.text === "string" ? part.text : ""))
    .join("");
  return nonEmpty(text);
}

/** R-PROV-4: only candidate zero (a missing `index` counts as zero). */
function candidateZero(choices: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices) {
    if (isObject(choice) && (choice.index === undefined || choice.index === null || choice.index === 0))
      return choice;
  }
  return undefined;
}

function sameUsage(a: Usage, b: Usage | null): boolean {
  return (
    b !== null &&
    a.prompt === b.prompt &&
    a.completion === b.completion &&
    a.cacheRead === b.cacheRead &&
    a.cacheWrite === b.cacheWrite
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Argument text; a server that sends the arguments as a JSON object gets them re-encoded, never dropped. */
function argumentsText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  return isObject(value) ? JSON.stringify(value) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
