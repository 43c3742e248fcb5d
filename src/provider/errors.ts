// A classified provider failure (R-RETRY-1). Errors are values at this border: the retry
// policy and the engine decide only from these fields.
import type { Usage } from "../vocab/usage.js";

export type ProviderErrorClass =
  | "rate_limit"
  | "quota"
  | "context_overflow"
  | "invalid_prompt"
  | "auth"
  | "bad_request"
  | "not_found"
  | "timeout"
  | "server"
  | "overloaded"
  | "network"
  | "incomplete_stream"
  /** A 2xx answer that is no model API's (an HTML page): the base URL reaches something else. */
  | "unexpected_response"
  | "cancelled";

export interface ProviderErrorInit {
  errorClass: ProviderErrorClass;
  message: string;
  status?: number;
  retryable: boolean;
  /** Delay the server asked for (retry-after-ms / retry-after), in ms. */
  retryAfterMs?: number;
  /** The connection closed while the request body was still being written (R-RETRY-5). */
  duringBodyWrite?: boolean;
  /** Usage the failed request reported before failing, so the ledger matches the bill. */
  usage?: Usage;
  /**
   * A refusal of the asked output limit that says what fits (Anthropic "input length and
   * `max_tokens` exceed context limit", vLLM, TGI, OpenAI's per-model cap): the largest
   * max_tokens that fits beside this input, so the request can be sent again once with it.
   */
  maxOutputTokensFit?: number;
}

export class ProviderError extends Error {
  readonly errorClass: ProviderErrorClass;
  readonly status?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly duringBodyWrite: boolean;
  readonly maxOutputTokensFit?: number;
  usage?: Usage;

  constructor(init: ProviderErrorInit) {
    super(init.message);
    this.name = "ProviderError";
    this.errorClass = init.errorClass;
    this.status = init.status;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
    this.duringBodyWrite = init.duringBodyWrite ?? false;
    this.usage = init.usage;
    this.maxOutputTokensFit = init.maxOutputTokensFit;
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}

/** The error every cancelled request ends with, whichever layer noticed the abort first. */
export function cancelledError(): ProviderError {
  return new ProviderError({ errorClass: "cancelled", retryable: false, message: "request cancelled" });
}
