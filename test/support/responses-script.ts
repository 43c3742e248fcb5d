// Builder for OpenAI Responses SSE scripts served by the fake provider (R-PROV-9):
//   responsesStream().reasoning("plan", "enc-1").text("Hi").functionCall({ callId, name, args })
//     .usage({ input_tokens: 10, output_tokens: 5 }).build()
// Each output item is announced with `response.output_item.added`, streams its deltas and ends
// with `response.output_item.done` carrying the whole item, as the real server does.
import type { ScriptedResponse } from "./fake-provider.js";
import { sseEvent } from "./fake-provider.js";

export interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
}

type Op = { kind: "frames"; frames: string[] } | { kind: "end"; frames: string[] };

export class ResponsesStreamBuilder {
  private readonly ops: Op[] = [];
  private outputIndex = 0;
  private seq = 0;
  private readonly output: Record<string, unknown>[] = [];
  private finalUsage: ResponsesUsage = { input_tokens: 10, output_tokens: 5 };
  private ending: "completed" | { incomplete: string } | { failed: { code: string; message: string } } =
    "completed";
  private extraHeaders: Record<string, string> = {};

  /** A reasoning item: its summary streams as summary deltas; `encrypted` is its opaque content. */
  reasoning(summary: string, encrypted: string, chunks: string[] = summary ? [summary] : []): this {
    const index = this.outputIndex++;
    const id = `rs_${index}`;
    const item = {
      id,
      type: "reasoning",
      summary: summary ? [{ type: "summary_text", text: summary }] : [],
      encrypted_content: encrypted,
    };
    const frames = [
      this.ev("response.output_item.added", { output_index: index, item: { ...item, summary: [] } }),
    ];
    if (chunks.length > 0) {
      frames.push(
        this.ev("response.reasoning_summary_part.added", {
          item_id: id,
          output_index: index,
          summary_index: 0,
        }),
      );
      for (const delta of chunks)
        frames.push(
          this.ev("response.reasoning_summary_text.delta", {
            item_id: id,
            output_index: index,
            summary_index: 0,
            delta,
          }),
        );
    }
    frames.push(this.ev("response.output_item.done", { output_index: index, item }));
    this.output.push(item);
    return this.push(frames);
  }

  text(text: string, chunks: string[] = [text], refusal = false): this {
    const index = this.outputIndex++;
    const id = `msg_${index}`;
    const part = refusal
      ? { type: "refusal", refusal: text }
      : { type: "output_text", text, annotations: [] };
    const item = { id, type: "message", role: "assistant", status: "completed", content: [part] };
    const frames = [
      this.ev("response.output_item.added", {
        output_index: index,
        item: { ...item, status: "in_progress", content: [] },
      }),
    ];
    for (const delta of chunks)
      frames.push(
        this.ev(refusal ? "response.refusal.delta" : "response.output_text.delta", {
          item_id: id,
          output_index: index,
          content_index: 0,
          delta,
        }),
      );
    frames.push(this.ev("response.output_item.done", { output_index: index, item }));
    this.output.push(item);
    return this.push(frames);
  }

  functionCall(call: {
    callId: string;
    name: string;
    args: Record<string, unknown>;
    chunks?: string[];
  }): this {
    const index = this.outputIndex++;
    const id = `fc_${index}`;
    const args = JSON.stringify(call.args);
    const item = {
      id,
      type: "function_call",
      status: "completed",
      call_id: call.callId,
      name: call.name,
      arguments: args,
    };
    const frames = [
      this.ev("response.output_item.added", {
        output_index: index,
        item: { ...item, status: "in_progress", arguments: "" },
      }),
    ];
    for (const delta of call.chunks ?? [args])
      frames.push(
        this.ev("response.function_call_arguments.delta", { item_id: id, output_index: index, delta }),
      );
    frames.push(
      this.ev("response.function_call_arguments.done", { item_id: id, output_index: index, arguments: args }),
    );
    frames.push(this.ev("response.output_item.done", { output_index: index, item }));
    this.output.push(item);
    return this.push(frames);
  }

  /** A provider-run web search (R-PROV-11). */
  webSearch(query: string): this {
    const index = this.outputIndex++;
    const id = `ws_${index}`;
    const item = { id, type: "web_search_call", status: "completed", action: { type: "search", query } };
    const frames = [
      this.ev("response.output_item.added", {
        output_index: index,
        item: { id, type: "web_search_call", status: "in_progress" },
      }),
      this.ev("response.web_search_call.in_progress", { item_id: id, output_index: index }),
      this.ev("response.web_search_call.searching", { item_id: id, output_index: index }),
      this.ev("response.web_search_call.completed", { item_id: id, output_index: index }),
      this.ev("response.output_item.done", { output_index: index, item }),
    ];
    this.output.push(item);
    return this.push(frames);
  }

  /** An `error` event here; the stream ends after it. */
  errorEvent(
    code = "server_error",
    message = "The server had an error while processing your request.",
  ): this {
    this.ops.push({ kind: "end", frames: [this.ev("error", { code, message, param: null })] });
    return this;
  }

  usage(usage: ResponsesUsage): this {
    this.finalUsage = usage;
    return this;
  }

  /** End with `response.incomplete` (e.g. `max_output_tokens`) instead of `response.completed`. */
  incomplete(reason: string): this {
    this.ending = { incomplete: reason };
    return this;
  }

  /** End with `response.failed` carrying this error. */
  failed(code: string, message: string): this {
    this.ending = { failed: { code, message } };
    return this;
  }

  headers(headers: Record<string, string>): this {
    this.extraHeaders = headers;
    return this;
  }

  frames(): string[] {
    const base = { id: "resp_fake", object: "response", model: "gpt-fake", output: [] as unknown[] };
    const out = [
      this.ev("response.created", { response: { ...base, status: "in_progress" } }),
      this.ev("response.in_progress", { response: { ...base, status: "in_progress" } }),
    ];
    for (const op of this.ops) {
      out.push(...op.frames);
      if (op.kind === "end") return out;
    }
    const u = this.finalUsage;
    const usage = {
      input_tokens: u.input_tokens,
      input_tokens_details: { cached_tokens: u.cached_tokens ?? 0 },
      output_tokens: u.output_tokens,
      output_tokens_details: { reasoning_tokens: u.reasoning_tokens ?? 0 },
      total_tokens: u.input_tokens + u.output_tokens,
    };
    const response = { ...base, output: this.output, usage };
    if (this.ending === "completed") {
      out.push(this.ev("response.completed", { response: { ...response, status: "completed" } }));
    } else if ("incomplete" in this.ending) {
      out.push(
        this.ev("response.incomplete", {
          response: {
            ...response,
            status: "incomplete",
            incomplete_details: { reason: this.ending.incomplete },
          },
        }),
      );
    } else {
      out.push(
        this.ev("response.failed", {
          response: { ...response, status: "failed", error: this.ending.failed },
        }),
      );
    }
    return out;
  }

  build(): ScriptedResponse {
    return { status: 200, headers: this.extraHeaders, frames: this.frames() };
  }

  private ev(type: string, data: Record<string, unknown>): string {
    return sseEvent(type, { type, sequence_number: this.seq++, ...data });
  }

  private push(frames: string[]): this {
    this.ops.push({ kind: "frames", frames });
    return this;
  }
}

export function responsesStream(): ResponsesStreamBuilder {
  return new ResponsesStreamBuilder();
}
