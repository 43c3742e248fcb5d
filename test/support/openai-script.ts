// A readable builder for OpenAI Chat Completions streams, played by the fake provider.
//
//   provider.enqueue(
//     openaiStream()
//       .reasoning("Let me look.")
//       .text("Hel").text("lo")
//       .toolCall({ id: "call_1", name: "read_file", args: { path: "a.txt" }, chunks: 3 })
//       .finish("tool_calls")
//       .usage({ prompt_tokens: 120, completion_tokens: 30, cached_tokens: 100 })
//       .build(),
//   );
//
// Frames are written in the order the methods are called. By default the stream opens with a
// `{role:"assistant", content:""}` frame (as OpenAI does; left out when the first call is a raw
// `frame()`/`comment()` or after `noRoleFrame()`) and ends with `data: [DONE]` (unless `noDone()`).
// Quirks: `noDone()`, `finish(reason, { usage })` (finish and usage in one frame, DeepSeek),
// `toolCall({ omitIndex, idLater, noArgumentsKey, emptyNameInContinuation })`, `malformed()`,
// `error(...)` (in-stream error), `comment()` (`: keep-alive`), `frame()` (any raw frame), and
// faults: `resetAfter(n)`, `stallAfter(n)`, `closeDuringBody()`, `resetBeforeHeaders()`.
// Shortcuts: `openaiText(text, usage?)`, `openaiToolCalls(calls, usage?)`, `openaiError(status, body, headers?)`.
import { type Fault, type ScriptedResponse, sseData } from "./fake-provider.js";

export interface OpenAIUsageInput {
  prompt_tokens: number;
  completion_tokens?: number;
  /** Sent as `prompt_tokens_details.cached_tokens`. */
  cached_tokens?: number;
  /** DeepSeek style `prompt_cache_hit_tokens`. */
  prompt_cache_hit_tokens?: number;
}

export interface ToolCallScript {
  id: string;
  name: string;
  /** A string is sent as is (may be invalid JSON on purpose); an object is JSON-encoded. */
  args?: string | Record<string, unknown>;
  /** Wire index (default: the call's position in this stream). */
  index?: number;
  /** Split the arguments over this many continuation frames (default 1). 0 = whole arguments in the opening frame. */
  chunks?: number;
  /** Leave `index` out of every delta (Mistral, Gemini). */
  omitIndex?: boolean;
  /** Send the id only on the second delta of the call. */
  idLater?: boolean;
  /** The opening delta has no `arguments` key at all (vLLM). */
  noArgumentsKey?: boolean;
  /** Continuation deltas carry `name: ""` (GLM through Mistral). */
  emptyNameInContinuation?: boolean;
  /** Gemini `extra_content`, sent on the opening delta. */
  extra_content?: unknown;
}

export interface FinishOptions {
  /** Put this usage in the finish frame itself (DeepSeek, Mistral, vLLM). */
  usage?: OpenAIUsageInput;
}

const BASE = { id: "chatcmpl-test", object: "chat.completion.chunk", created: 1, model: "test-model" };

export class OpenAIStreamBuilder {
  private readonly frames: string[] = [];
  private nextCallIndex = 0;
  private sendDone = true;
  private openingFrame = true;
  private response: Omit<ScriptedResponse, "frames"> = {};

  constructor(private readonly model = "test-model") {}

  /** Reasoning text as `reasoning_content` (DeepSeek, llama.cpp) or `reasoning` (Ollama, Groq, OpenRouter). */
  reasoning(text: string, field: "reasoning_content" | "reasoning" = "reasoning_content"): this {
    return this.delta({ [field]: text });
  }

  text(text: string): this {
    return this.delta({ content: text });
  }

  toolCall(call: ToolCallScript): this {
    const index = call.index ?? this.nextCallIndex;
    this.nextCallIndex = Math.max(this.nextCallIndex, index + 1);
    const args =
      call.args === undefined ? "{}" : typeof call.args === "string" ? call.args : JSON.stringify(call.args);
    const pieces = call.chunks === 0 ? [] : splitInto(args, call.chunks ?? 1);
    const withIndex = (o: Record<string, unknown>) => (call.omitIndex ? o : { index, ...o });
    const opening: Record<string, unknown> = withIndex({ type: "function" });
    if (!call.idLater) opening.id = call.id;
    const fn: Record<string, unknown> = { name: call.name };
    if (call.chunks === 0) fn.arguments = args;
    else if (!call.noArgumentsKey) fn.arguments = "";
    opening.function = fn;
    if (call.extra_content !== undefined) opening.extra_content = call.extra_content;
    this.delta({ tool_calls: [opening] });
    pieces.forEach((piece, i) => {
      const cont: Record<string, unknown> = withIndex({});
      if (call.idLater && i === 0) cont.id = call.id;
      cont.function = call.emptyNameInContinuation ? { name: "", arguments: piece } : { arguments: piece };
      this.delta({ tool_calls: [cont] });
    });
    if (call.idLater && pieces.length === 0) this.delta({ tool_calls: [withIndex({ id: call.id })] });
    return this;
  }

  /** A `delta: {}` frame with this finish reason (default `stop`). */
  finish(reason = "stop", options: FinishOptions = {}): this {
    const chunk: Record<string, unknown> = {
      ...BASE,
      model: this.model,
      choices: [{ index: 0, delta: {}, finish_reason: reason }],
    };
    if (options.usage) chunk.usage = usagePayload(options.usage);
    return this.push(chunk);
  }

  /** The `choices: []` usage frame OpenAI sends last when `include_usage` is on. */
  usage(usage: OpenAIUsageInput): this {
    return this.push({ ...BASE, model: this.model, choices: [], usage: usagePayload(usage) });
  }

  /** Any chunk object (sent as one `data:` frame) or a raw string frame (sent verbatim). */
  frame(chunk: Record<string, unknown> | string): this {
    this.openingFrame = false;
    this.frames.push(typeof chunk === "string" ? chunk : sseData(chunk));
    return this;
  }

  /** An SSE comment line such as `: keep-alive`. */
  comment(text = "keep-alive"): this {
    return this.frame(`: ${text}\n\n`);
  }

  /** A frame whose JSON does not parse. */
  malformed(): this {
    return this.frame('data: {"id":"chatcmpl-test","choices":[{"index":0,"delta":{"content":"oops"\n\n');
  }

  /** An in-stream error object, `{"error": {...}}` (OpenAI, llama.cpp). */
  error(error: Record<string, unknown> = { message: "The server had an error", type: "server_error" }): this {
    return this.frame({ error });
  }

  /** Leave out the final `data: [DONE]`. */
  noDone(): this {
    this.sendDone = false;
    return this;
  }

  /** Do not send the initial `{role:"assistant", content:""}` frame. */
  noRoleFrame(): this {
    this.openingFrame = false;
    return this;
  }

  status(status: number): this {
    this.response.status = status;
    return this;
  }

  headers(headers: Record<string, string>): this {
    this.response.headers = { ...this.response.headers, ...headers };
    return this;
  }

  /** Pause between frames, in ms. */
  delay(ms: number): this {
    this.response.frameDelayMs = ms;
    return this;
  }

  /** Hold the stream here (before the next frame) until `until` settles. */
  hold(until: Promise<unknown>): this {
    this.response.holds ??= new Map();
    this.response.holds.set(this.frames.length, until);
    return this;
  }

  fault(fault: Fault): this {
    this.response.fault = fault;
    return this;
  }

  /** Send the first `frames` frames (counting the role frame and comments), then reset the socket. */
  resetAfter(frames: number): this {
    return this.fault({ kind: "reset_after", frames });
  }

  /** Send the first `frames` frames, then go silent (for idle-timeout tests). */
  stallAfter(frames: number): this {
    return this.fault({ kind: "stall_after", frames });
  }

  closeDuringBody(): this {
    return this.fault({ kind: "close_during_body" });
  }

  resetBeforeHeaders(): this {
    return this.fault({ kind: "reset_before_headers" });
  }

  /** The frames as built so far (including [DONE] unless `noDone()`). */
  get frameList(): string[] {
    return this.sendDone ? [...this.frames, "data: [DONE]\n\n"] : [...this.frames];
  }

  build(): ScriptedResponse {
    return { ...this.response, frames: this.frameList };
  }

  private delta(delta: Record<string, unknown>): this {
    return this.push({ ...BASE, model: this.model, choices: [{ index: 0, delta, finish_reason: null }] });
  }

  private push(chunk: Record<string, unknown>): this {
    if (this.openingFrame) {
      this.openingFrame = false;
      this.frames.push(
        sseData({
          ...BASE,
          model: this.model,
          choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
        }),
      );
    }
    this.frames.push(sseData(chunk));
    return this;
  }
}

/** Starts a scripted OpenAI-compatible stream. */
export function openaiStream(model?: string): OpenAIStreamBuilder {
  return new OpenAIStreamBuilder(model);
}

/** A complete text reply: text, finish `stop`, usage frame, [DONE]. */
export function openaiText(
  text: string,
  usage: OpenAIUsageInput = { prompt_tokens: 10, completion_tokens: 5 },
): ScriptedResponse {
  return openaiStream().text(text).finish("stop").usage(usage).build();
}

/** A complete tool-call reply: optional text, the calls, finish `tool_calls`, usage, [DONE]. */
export function openaiToolCalls(
  calls: ToolCallScript[],
  usage: OpenAIUsageInput = { prompt_tokens: 10, completion_tokens: 5 },
  text?: string,
): ScriptedResponse {
  const builder = openaiStream();
  if (text) builder.text(text);
  for (const call of calls) builder.toolCall(call);
  return builder.finish("tool_calls").usage(usage).build();
}

/** A plain HTTP error response; an object body is JSON-encoded. */
export function openaiError(
  status: number,
  body: string | Record<string, unknown> | unknown[],
  headers?: Record<string, string>,
): ScriptedResponse {
  return { status, body: typeof body === "string" ? body : JSON.stringify(body), headers };
}

function usagePayload(usage: OpenAIUsageInput): Record<string, unknown> {
  // Leaving completion_tokens out reproduces Vertex, which may omit it.
  const payload: Record<string, unknown> = { prompt_tokens: usage.prompt_tokens };
  if (usage.completion_tokens !== undefined) payload.completion_tokens = usage.completion_tokens;
  payload.total_tokens = usage.prompt_tokens + (usage.completion_tokens ?? 0);
  if (usage.cached_tokens !== undefined)
    payload.prompt_tokens_details = { cached_tokens: usage.cached_tokens };
  if (usage.prompt_cache_hit_tokens !== undefined)
    payload.prompt_cache_hit_tokens = usage.prompt_cache_hit_tokens;
  return payload;
}

function splitInto(text: string, parts: number): string[] {
  if (parts <= 1 || text.length <= 1) return [text];
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
