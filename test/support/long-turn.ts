// A scripted model for long single turns on either protocol: it answers each round from the
// request itself (so compaction's summary requests, however many, never eat a round's script),
// reports a prompt size from tern's own chars/4 estimator, and measures every request the fake
// server received: the estimate and the raw bytes. Shared by e2e tests and bench/.
import { estimateTokens } from "../../src/engine/compaction/compaction-estimate.js";
import { anthropicStream } from "./anthropic-script.js";
import type { FakeProvider, RecordedRequest, ScriptedResponse } from "./fake-provider.js";
import { openaiText, openaiToolCalls } from "./openai-script.js";
import type { ContentPart, Message } from "../../src/vocab/messages.js";

export type Protocol = "openai-chat" | "anthropic-messages";

export interface ToolStep {
  name: string;
  args: Record<string, unknown>;
}

/** The wire body back in tern's message shape, so tern's estimator can measure it. */
export function wireMessages(
  protocol: Protocol,
  body: any,
): { system: string; tools: string; messages: Message[] } {
  const tools = body.tools ? JSON.stringify(body.tools) : "";
  const text = (t: unknown): ContentPart => ({ type: "text", text: String(t ?? "") });
  if (protocol === "openai-chat") {
    let system = "";
    const messages: Message[] = [];
    for (const m of body.messages ?? []) {
      const parts: ContentPart[] =
        typeof m.content === "string"
          ? [text(m.content)]
          : (m.content ?? []).map((p: any) =>
              p.type === "text" ? text(p.text) : { type: "image", mediaType: "image/png", data: "" },
            );
      if (m.role === "system") system += parts.map((p) => (p.type === "text" ? p.text : "")).join("");
      else if (m.role === "assistant") {
        const toolCalls = (m.tool_calls ?? []).map((c: any) => ({
          id: c.id,
          name: c.function.name,
          arguments: c.function.arguments,
        }));
        messages.push({ role: "assistant", text: String(m.content ?? ""), reasoning: "", toolCalls });
      } else if (m.role === "tool")
        messages.push({
          role: "tool",
          toolCallId: m.tool_call_id,
          toolName: "",
          content: parts,
          isError: false,
        });
      else messages.push({ role: "user", content: parts });
    }
    return { system, tools, messages };
  }
  const system = (body.system ?? []).map((b: any) => b.text ?? "").join("");
  const messages: Message[] = [];
  for (const m of body.messages ?? []) {
    const blocks: any[] = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    if (m.role === "assistant") {
      messages.push({
        role: "assistant",
        text: blocks
          .filter((b) => b.type === "text" || b.type === "thinking")
          .map((b) => b.text ?? b.thinking)
          .join(""),
        reasoning: "",
        toolCalls: blocks
          .filter((b) => b.type === "tool_use")
          .map((b) => ({ id: b.id, name: b.name, arguments: JSON.stringify(b.input) })),
      });
      continue;
    }
    const parts: ContentPart[] = [];
    for (const b of blocks) {
      if (b.type === "text") parts.push(text(b.text));
      else if (b.type === "image") parts.push({ type: "image", mediaType: "image/png", data: "" });
      else if (b.type === "tool_result")
        for (const c of b.content ?? []) parts.push(c.type === "text" ? text(c.text) : text(""));
    }
    messages.push({ role: "user", content: parts });
  }
  return { system, tools, messages };
}

/** tern's own chars/4 estimate of a request as it arrived on the wire. */
export function wireEstimate(protocol: Protocol, body: any): number {
  const w = wireMessages(protocol, body);
  return estimateTokens(w.system, w.tools, w.messages);
}

/** A compaction summary request: its last user text is the summarize instruction. */
export function isSummaryRequest(protocol: Protocol, body: any): boolean {
  const last = wireMessages(protocol, body).messages.at(-1);
  if (last?.role !== "user") return false;
  const t = last.content.map((p) => (p.type === "text" ? p.text : "")).join("");
  return /Summarize the (conversation|work done so far)/.test(t.slice(-2000));
}

export interface LongTurnStats {
  requests: number;
  summaryRequests: number;
  /** Estimated prompt tokens of all requests, and of the summary requests. */
  promptTokens: number;
  summaryPromptTokens: number;
  largestEstimate: number;
  largestRawBytes: number;
}

/**
 * Plays `steps` as one round each (a step that is a list is one batch of calls), then a final
 * text; answers every summary request with a short summary. Usage reports the request's own
 * estimate as its prompt tokens.
 */
export function playLongTurn(
  provider: FakeProvider,
  protocol: Protocol,
  steps: (ToolStep | ToolStep[])[],
  finalText = "All done.",
  keepBodies = false,
): LongTurnStats {
  const stats: LongTurnStats = {
    requests: 0,
    summaryRequests: 0,
    promptTokens: 0,
    summaryPromptTokens: 0,
    largestEstimate: 0,
    largestRawBytes: 0,
  };
  let round = 0;
  provider.setResponder((req: RecordedRequest): ScriptedResponse => {
    const prompt = wireEstimate(protocol, req.body);
    const summary = isSummaryRequest(protocol, req.body);
    stats.requests++;
    stats.promptTokens += prompt;
    stats.largestEstimate = Math.max(stats.largestEstimate, prompt);
    stats.largestRawBytes = Math.max(stats.largestRawBytes, Buffer.byteLength(req.rawBody));
    if (!keepBodies) {
      // Only the measurements are needed; dropping the bodies keeps a 200-round run small.
      req.body = null;
      req.rawBody = "";
    }
    if (summary) {
      stats.summaryRequests++;
      stats.summaryPromptTokens += prompt;
      return reply(protocol, { text: `Summary: ${round} rounds of tool work done so far.` }, prompt);
    }
    const step = steps[round++];
    if (!step) return reply(protocol, { text: finalText }, prompt);
    const batch = Array.isArray(step) ? step : [step];
    return reply(protocol, { calls: batch.map((c, i) => ({ id: `call_${round}_${i + 1}`, ...c })) }, prompt);
  });
  return stats;
}

function reply(
  protocol: Protocol,
  what: { text: string } | { calls: (ToolStep & { id: string })[] },
  prompt: number,
): ScriptedResponse {
  if (protocol === "openai-chat") {
    const usage = { prompt_tokens: prompt, completion_tokens: 20 };
    return "text" in what
      ? openaiText(what.text, usage)
      : openaiToolCalls(
          what.calls.map((c) => ({ id: c.id, name: c.name, args: c.args })),
          usage,
        );
  }
  const stream = anthropicStream();
  if ("text" in what) stream.text(what.text).stop("end_turn");
  else {
    for (const c of what.calls) stream.toolUse({ id: c.id, name: c.name, input: c.args });
    stream.stop("tool_use");
  }
  return stream.usage({ input_tokens: prompt, output_tokens: 20 }).build();
}
