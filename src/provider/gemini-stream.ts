// Gemini `streamGenerateContent?alt=sse` chunks → normalized ProviderEvents (R-PROV-12, wire
// facts "Gemini API"). Pure state machine: no I/O. Usage is cumulative on every chunk and may come
// alone after the finish; candidate zero only (R-PROV-4); function calls arrive whole.
import { randomUUID } from "node:crypto";
import { classifyStreamError } from "./classify.js";
import { TextBuilder } from "./text-builder.js";
import type { FinishReason, ProviderEvent, StreamResult } from "./types.js";
import type { ProviderItem, ToolCall } from "../vocab/messages.js";
import type { Usage } from "../vocab/usage.js";

const FILTERED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT"]);

/** R-PROV-12: Gemini's finish values in tern's words; the engine fails a turn on `other:`. */
export function mapGeminiFinish(raw: string, hasCalls: boolean): FinishReason {
  if (raw === "STOP") return hasCalls ? "tool_calls" : "stop";
  if (raw === "MAX_TOKENS") return "length";
  if (FILTERED.has(raw)) return "content_filter";
  return `other:${raw}`;
}

/** Gemini's usageMetadata → tern's usage: cached tokens are part of the prompt; thoughts are output. */
export function geminiUsage(meta: Record<string, unknown>): Usage {
  const n = (key: string) => (typeof meta[key] === "number" ? (meta[key] as number) : 0);
  return {
    prompt: n("promptTokenCount") + n("toolUsePromptTokenCount"),
    completion: n("candidatesTokenCount") + n("thoughtsTokenCount"),
    cacheRead: n("cachedContentTokenCount"),
    cacheWrite: 0,
  };
}

type Part = Record<string, unknown>;

export class GeminiStreamState {
  private readonly text = new TextBuilder();
  private readonly reasoning = new TextBuilder();
  private readonly calls: ToolCall[] = [];
  /** Text and thought parts as received (fragments of one part joined), for their signatures. */
  private readonly parts: Part[] = [];
  private signed = false;
  private rawFinish: string | null = null;
  private promptBlocked = false;
  private usage: Usage | null = null;

  /** The candidate's finish reason (or a blocked prompt) arrived: the answer is whole. */
  get hasFinish(): boolean {
    return this.rawFinish !== null;
  }

  get latestUsage(): Usage | null {
    return this.usage;
  }

  *handle(payload: any): Generator<ProviderEvent, void, void> {
    if (Array.isArray(payload)) {
      for (const item of payload) yield* this.handle(item);
      return;
    }
    if (payload?.error) throw classifyStreamError(payload);
    if (payload?.usageMetadata && typeof payload.usageMetadata === "object") {
      const usage = geminiUsage(payload.usageMetadata);
      if (JSON.stringify(usage) !== JSON.stringify(this.usage)) {
        this.usage = usage;
        yield { type: "usage", usage };
      }
    }
    const blocked = payload?.promptFeedback?.blockReason;
    const candidate = Array.isArray(payload?.candidates) ? payload.candidates[0] : undefined;
    if (!candidate && typeof blocked === "string") {
      // A refused prompt has no candidates: filtered, never an empty success (wire facts).
      this.rawFinish = blocked;
      this.promptBlocked = true;
      return;
    }
    for (const part of candidate?.content?.parts ?? []) yield* this.part(part);
    if (typeof candidate?.finishReason === "string") this.rawFinish = candidate.finishReason;
  }

  private *part(part: Part): Generator<ProviderEvent, void, void> {
    const signature = typeof part.thoughtSignature === "string" ? part.thoughtSignature : undefined;
    if (part.functionCall && typeof part.functionCall === "object") {
      const call = part.functionCall as Record<string, unknown>;
      const index = this.calls.length;
      const name = typeof call.name === "string" ? call.name : "";
      const wireId = typeof call.id === "string" && call.id !== "" ? call.id : undefined;
      const args = JSON.stringify(call.args ?? {});
      const gemini: Record<string, string> = {};
      if (signature) gemini.thoughtSignature = signature;
      if (wireId) gemini.id = wireId;
      // Gemini usually names no id: one is made, and the result goes back by name and order.
      const id = wireId ?? `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
      this.calls.push({ id, name, arguments: args, extra: { gemini } });
      yield { type: "tool_call_start", index, id, name };
      yield { type: "tool_call_delta", index, argumentsDelta: args };
      return;
    }
    if (typeof part.text === "string") {
      const thought = part.thought === true;
      if (part.text !== "") {
        (thought ? this.reasoning : this.text).add(part.text);
        yield thought
          ? { type: "reasoning_delta", text: part.text }
          : { type: "text_delta", text: part.text };
      }
      this.keep(part.text, thought, signature);
      return;
    }
    if (part.inlineData && typeof part.inlineData === "object") {
      // An image the model made: tern keeps text only, so it is named, not dropped silently.
      const mime = String((part.inlineData as Record<string, unknown>).mimeType ?? "unknown type");
      const note = `[the model returned an image (${mime}); tern does not show model-made images]`;
      this.text.add(note);
      yield { type: "text_delta", text: note };
      this.keep(note, false, signature);
    }
  }

  /** Joins a streamed part's fragments; a signature closes the part it rode on. */
  private keep(text: string, thought: boolean, signature: string | undefined): void {
    if (signature) this.signed = true;
    const last = this.parts[this.parts.length - 1];
    const open = last && last.thoughtSignature === undefined && (last.thought === true) === thought;
    if (open && text !== "") {
      last.text = `${last.text as string}${text}`;
      if (signature) last.thoughtSignature = signature;
      return;
    }
    if (text === "" && !signature) return;
    const part: Part = { text };
    if (thought) part.thought = true;
    if (signature) part.thoughtSignature = signature;
    this.parts.push(part);
  }

  result(): StreamResult {
    const raw = this.rawFinish;
    const hasCalls = this.calls.length > 0;
    let finish: FinishReason =
      raw === null ? (hasCalls ? "tool_calls" : "stop") : mapGeminiFinish(raw, hasCalls);
    if (this.promptBlocked) finish = "content_filter";
    const result: StreamResult = {
      text: this.text.text(),
      reasoning: this.reasoning.text(),
      thinkingBlocks: [],
      toolCalls: this.calls,
      finish,
      rawFinish: raw,
      usage: this.usage,
    };
    // Signed text or thought parts go back as they came (R-PROV-12); unsigned ones need not.
    if (this.signed) {
      result.providerItems = this.parts.map((item): ProviderItem => ({ api: "google-gemini", item }));
    }
    return result;
  }
}
