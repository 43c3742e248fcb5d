// The failures every adapter's stream read shares: a stream cut short, a cut that may be forgiven
// once the answer is whole, and a model stopped by a full context window (R-RETRY-1, R-PROV-6).
import { isProviderError, ProviderError } from "./errors.js";
import type { Usage } from "../vocab/usage.js";

/** A stream that ended or broke before its answer was whole: retried like a network failure. */
export function incompleteStream(message: string): ProviderError {
  return new ProviderError({ errorClass: "incomplete_stream", message, retryable: true });
}

/** A frame's JSON payload; one that does not parse cuts the stream (`what`: "stream frame", "event payload"). */
export function streamJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw incompleteStream(`unparsable ${what}: ${text.slice(0, 120)}`);
  }
}

/** A failure of the connection itself (not the server's refusal): harmless once the answer is whole. */
export function isTransportCut(error: unknown): boolean {
  return (
    isProviderError(error) &&
    (error.errorClass === "network" ||
      error.errorClass === "timeout" ||
      error.errorClass === "incomplete_stream")
  );
}

/** The model ran into the context window (`model_context_window_exceeded`): an overflow, answered by compaction. */
export function contextWindowFull(): ProviderError {
  return new ProviderError({
    errorClass: "context_overflow",
    retryable: false,
    message: "the model stopped with model_context_window_exceeded: the context window is full",
  });
}

/** The bill counts tokens of failed requests too: usage seen before a failure travels with the error. */
export function carryUsage(error: unknown, usage: Usage | null | undefined): void {
  if (isProviderError(error) && !error.usage && usage) error.usage = usage;
}
