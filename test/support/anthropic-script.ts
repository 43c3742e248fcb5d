// Builder for Anthropic Messages SSE scripts served by the fake provider (wire facts §2):
//   anthropicStream().thinking("…", "sig").text("Hi").toolUse({ id, name, input }).stop("tool_use")
//     .usage({ input_tokens: 10, output_tokens: 5 }).build()
import type { ScriptedResponse } from "./fake-provider.js";
import { sseEvent } from "./fake-provider.js";

export interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface ToolUseScript {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** How the input JSON is split into input_json_delta frames (default: "" then the whole JSON). */
  chunks?: string[];
}

type Op = { kind: "frames"; frames: string[] } | { kind: "error"; frame: string };

export class AnthropicStreamBuilder {
  private readonly ops: Op[] = [];
  private index = 0;
  private stopReason: string | null = "end_turn";
  private finalUsage: AnthropicUsage = { input_tokens: 10, output_tokens: 5 };
  private startUsage: AnthropicUsage | undefined;
  private withMessageStop = true;
  private extraHeaders: Record<string, string> = {};

  /** A thinking block; `signature: null` imitates older servers that sent none. */
  thinking(text: string, signature: string | null = "sig", chunks: string[] = [text]): this {
    const index = this.index++;
    const start: Record<string, unknown> = { type: "thinking", thinking: "" };
    if (signature !== null) start.signature = "";
    const frames = [
      sseEvent("content_block_start", { type: "content_block_start", index, content_block: start }),
    ];
    for (const c of chunks) frames.push(delta(index, { type: "thinking_delta", thinking: c }));
    if (signature !== null) frames.push(delta(index, { type: "signature_delta", signature }));
    frames.push(blockStop(index));
    return this.push(frames);
  }

  redactedThinking(data: string): this {
    const index = this.index++;
    return this.push([
      sseEvent("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "redacted_thinking", data },
      }),
      blockStop(index),
    ]);
  }

  text(text: string, chunks: string[] = [text]): this {
    const index = this.index++;
    const frames = [
      sseEvent("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }),
    ];
    for (const c of chunks) frames.push(delta(index, { type: "text_delta", text: c }));
    frames.push(blockStop(index));
    return this.push(frames);
  }

  toolUse(tool: ToolUseScript): this {
    const index = this.index++;
    const frames = [
      sseEvent("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: tool.id, name: tool.name, input: {} },
      }),
    ];
    for (const c of tool.chunks ?? ["", JSON.stringify(tool.input)]) {
      frames.push(delta(index, { type: "input_json_delta", partial_json: c }));
    }
    frames.push(blockStop(index));
    return this.push(frames);
  }

  ping(): this {
    return this.push([sseEvent("ping", { type: "ping" })]);
  }

  /** Any raw frame at this point (unknown events, broken JSON…). */
  raw(frame: string): this {
    return this.push([frame]);
  }

  /** An `event: error` frame here; the stream ends after it. First in the script = the very first frame. */
  errorEvent(type = "overloaded_error", message = "Overloaded"): this {
    this.ops.push({
      kind: "error",
      frame: sseEvent("error", { type: "error", error: { details: null, type, message } }),
    });
    return this;
  }

  stop(reason: string | null): this {
    this.stopReason = reason;
    return this;
  }

  /** Final cumulative usage (sent on message_delta); message_start carries the input side. */
  usage(usage: AnthropicUsage, startUsage?: AnthropicUsage): this {
    this.finalUsage = usage;
    this.startUsage = startUsage;
    return this;
  }

  noMessageStop(): this {
    this.withMessageStop = false;
    return this;
  }

  headers(headers: Record<string, string>): this {
    this.extraHeaders = headers;
    return this;
  }

  frames(): string[] {
    const first = this.ops[0];
    if (first?.kind === "error") return [first.frame];
    const u = this.finalUsage;
    const startUsage = this.startUsage ?? {
      input_tokens: u.input_tokens ?? 0,
      cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
      cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
      output_tokens: 1,
    };
    const out = [
      sseEvent("message_start", {
        type: "message_start",
        message: {
          id: "msg_01fake",
          type: "message",
          role: "assistant",
          model: "claude-fake",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: startUsage,
        },
      }),
    ];
    for (const op of this.ops) {
      if (op.kind === "error") {
        out.push(op.frame);
        return out;
      }
      out.push(...op.frames);
    }
    out.push(
      sseEvent("message_delta", {
        type: "message_delta",
        delta: { stop_reason: this.stopReason, stop_sequence: null },
        usage: u,
      }),
    );
    if (this.withMessageStop) out.push(sseEvent("message_stop", { type: "message_stop" }));
    return out;
  }

  build(): ScriptedResponse {
    return { status: 200, headers: this.extraHeaders, frames: this.frames() };
  }

  private push(frames: string[]): this {
    this.ops.push({ kind: "frames", frames });
    return this;
  }
}

export function anthropicStream(): AnthropicStreamBuilder {
  return new AnthropicStreamBuilder();
}

/** An Anthropic HTTP error response: `{"type":"error","error":{type,message},"request_id":…}`. */
export function anthropicError(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): ScriptedResponse {
  return {
    status,
    headers,
    body: JSON.stringify({ type: "error", error: { type, message }, request_id: "req_011fake" }),
  };
}

function delta(index: number, d: Record<string, unknown>): string {
  return sseEvent("content_block_delta", { type: "content_block_delta", index, delta: d });
}

function blockStop(index: number): string {
  return sseEvent("content_block_stop", { type: "content_block_stop", index });
}
