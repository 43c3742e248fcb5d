// R-RETRY-1: turns an HTTP error response or an in-stream error object (either protocol) into a
// classified ProviderError. The retry policy and the engine decide only from its fields, so every
// provider quirk about error shapes is absorbed here.
import { ProviderError, type ProviderErrorClass } from "./errors.js";
import { maxOutputTokensFit } from "./output-fit.js";

const MAX_MESSAGE_CHARS = 300;

/** What we could read out of an error body, whatever its shape. */
interface ErrorInfo {
  message?: string;
  code?: string;
  type?: string;
  /** A numeric `code` inside the body (OpenRouter, llama.cpp, Gemini, vLLM). */
  numericCode?: number;
}

const CONTEXT_OVERFLOW_CODES = new Set(["context_length_exceeded", "exceed_context_size_error"]);
const CONTEXT_OVERFLOW_TEXT =
  /prompt is too long|input length and `?max_tokens`? exceed context limit|maximum context length|exceeds? the available context size|input tokens exceed the configured limit|context[ _]length[ _]exceeded|context window (?:is )?exceeded|input token count \(?\d*\)? ?exceeds the maximum|input is too long for requested model|too many input tokens/i;
const QUOTA_TEXT =
  /exceeded your current quota|insufficient[ _]quota|quota (?:has been )?exceeded|credit balance is too low|insufficient credits|out of credits/i;

/** Classifies a non-2xx HTTP response, or a 2xx HTML page (the whole body has been read). */
export function classifyHttpError(
  status: number,
  body: string,
  headers: Record<string, string>,
): ProviderError {
  if (status >= 200 && status < 300) return htmlPageError(status, body);
  const info = extractErrorInfo(parseJson(body) ?? parseJson(firstSseData(body)));
  const message = operatorMessage(info.message ?? (plainText(body) || `HTTP ${status}`), status);
  const { errorClass, retryable } = decide(status, info);
  return new ProviderError({
    errorClass,
    retryable,
    status,
    message,
    retryAfterMs: retryable ? (parseRetryAfter(headers) ?? googleRetryDelay(body)) : undefined,
    maxOutputTokensFit: maxOutputTokensFit(info.message),
  });
}

/**
 * Classifies an error object found inside a stream (OpenAI `{"error":…}`, OpenRouter
 * `finish_reason:"error"` chunks, vLLM `{"object":"error"}`, Anthropic `{"type":"error"}`).
 * `status` is the HTTP status of the stream itself when the caller wants it considered.
 */
export function classifyStreamError(payload: unknown, status?: number): ProviderError {
  const info = extractErrorInfo(payload);
  const effective = streamStatus(info) ?? (status !== undefined && status >= 400 ? status : undefined);
  const message = operatorMessage(info.message ?? "the provider reported an error mid-stream", effective);
  // An unknown in-stream error with no status is most often a dropped upstream: treat as server.
  const { errorClass, retryable } = decide(effective ?? 500, info);
  return new ProviderError({ errorClass, retryable, status: effective, message });
}

/** Delay the server asked for, in ms: `retry-after-ms` first, else `retry-after` (seconds or HTTP date). */
export function parseRetryAfter(
  headers: Record<string, string>,
  now: number = Date.now(),
): number | undefined {
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return Math.ceil(value);
  }
  const after = header(headers, "retry-after");
  if (after === undefined) return undefined;
  const trimmed = after.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.ceil(Number.parseFloat(trimmed) * 1000);
  // An HTTP date names its day ("Wed, 21 Oct 2015 07:28:00 GMT"); anything else ("-5", "soon")
  // is no delay the server gave, and must not turn into an immediate retry.
  // HTTP dates are GMT, the asctime form too, which names no zone (Date.parse would read local time).
  const zoned = /GMT|UTC|[+-]\d{4}$/.test(trimmed) ? trimmed : `${trimmed} GMT`;
  const date = /[a-z]{3}/i.test(trimmed) ? Date.parse(zoned) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Removes anything that looks like an API key or credential from text meant for people or logs. */
export function redactSecrets(text: string): string {
  return (
    text
      // OpenAI "Incorrect API key provided: sk-VK…wjh3": even the fragment is withheld.
      .replace(/(api key provided:\s*)[^\s,;]+?(?=\.?(?:\s|$))/gi, "$1[redacted]")
      .replace(/\b(sk|rk|pk)-[^\s"',;)}\]]*[^\s"',;)}\].]/g, "$1-[redacted]")
      .replace(/\bBearer\s+[^\s"',;]+/gi, "Bearer [redacted]")
      .replace(
        /\b(x-api-key|api[_-]?key|access[_-]?token|authorization)(["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi,
        "$1$2[redacted]",
      )
      .replace(/\bAIza[0-9A-Za-z_-]{20,}/g, "[redacted]")
      // Long opaque tokens mixing letters and digits are treated as keys.
      .replace(/[A-Za-z0-9_-]{32,}/g, (token) =>
        /[0-9]/.test(token) && /[A-Za-z]/.test(token) ? "[redacted]" : token,
      )
  );
}

/**
 * Gemini / Vertex 429 RESOURCE_EXHAUSTED: the wait is in the body, a `google.rpc.RetryInfo`
 * detail with `retryDelay: "34.4s"` (R-PROV-12), not in a header.
 */
function googleRetryDelay(body: string): number | undefined {
  const parsed = parseJson(body) as any;
  const error = (Array.isArray(parsed) ? parsed[0] : parsed)?.error;
  const details: unknown[] = Array.isArray(error?.details) ? error.details : [];
  for (const detail of details) {
    const delay = isObject(detail) ? detail.retryDelay : undefined;
    const match = typeof delay === "string" ? /^(\d+(?:\.\d+)?)s$/.exec(delay.trim()) : null;
    if (match) return Math.ceil(Number.parseFloat(match[1]) * 1000);
  }
  return undefined;
}

function decide(status: number, info: ErrorInfo): { errorClass: ProviderErrorClass; retryable: boolean } {
  const code = (info.code ?? "").toLowerCase();
  const type = (info.type ?? "").toLowerCase();
  const message = info.message ?? "";
  if (
    CONTEXT_OVERFLOW_CODES.has(code) ||
    CONTEXT_OVERFLOW_CODES.has(type) ||
    CONTEXT_OVERFLOW_TEXT.test(message)
  ) {
    return { errorClass: "context_overflow", retryable: false };
  }
  // Google's rate limit says "You exceeded your current quota" yet passes with the RetryInfo wait.
  if (code === "resource_exhausted" && status === 429) return { errorClass: "rate_limit", retryable: true };
  if (
    code.startsWith("insufficient_quota") ||
    type.startsWith("insufficient_quota") ||
    type === "billing_error" ||
    status === 402 ||
    QUOTA_TEXT.test(message)
  ) {
    return { errorClass: "quota", retryable: false };
  }
  if (code === "invalid_prompt") return { errorClass: "invalid_prompt", retryable: false };
  // Gemini answers a bad key with 400 INVALID_ARGUMENT "API key not valid".
  if (/\bAPI key not valid\b/i.test(message)) return { errorClass: "auth", retryable: false };
  if (status === 529 || type === "overloaded_error") return { errorClass: "overloaded", retryable: true };
  if (status >= 500) return { errorClass: "server", retryable: true };
  if (status === 429) return { errorClass: "rate_limit", retryable: true };
  if (status === 408) return { errorClass: "timeout", retryable: true };
  if (status === 404) return { errorClass: "not_found", retryable: true };
  if (status === 401 || status === 403) return { errorClass: "auth", retryable: false };
  return { errorClass: "bad_request", retryable: false };
}

/** In-stream errors carry no HTTP status: derive one from the body's code or type. */
function streamStatus(info: ErrorInfo): number | undefined {
  if (info.numericCode !== undefined && info.numericCode >= 400 && info.numericCode < 600)
    return info.numericCode;
  const key = `${info.type ?? ""} ${info.code ?? ""}`.toLowerCase();
  if (/overloaded/.test(key)) return 529;
  if (/rate_limit|too_many_requests|\btokens\b/.test(key)) return 429;
  if (/timeout/.test(key)) return 504;
  if (/server_error|api_error|internal|unavailable/.test(key)) return 500;
  if (/authentication|invalid_api_key|unauthenticated/.test(key)) return 401;
  if (/permission/.test(key)) return 403;
  if (/not_found/.test(key)) return 404;
  if (
    /invalid_request|badrequest|bad_request|invalid_argument|invalid_prompt|context_length|exceed_context/.test(
      key,
    )
  ) {
    return 400;
  }
  if (/insufficient_quota|billing/.test(key)) return 429;
  return undefined;
}

function extractErrorInfo(value: unknown): ErrorInfo {
  // Gemini wraps the error object in an array.
  if (Array.isArray(value)) return value.length > 0 ? extractErrorInfo(value[0]) : {};
  if (typeof value === "string") return { message: value };
  if (!isObject(value)) return {};
  const inner = value.error;
  if (typeof inner === "string") return { message: inner, ...codeFields(value) };
  if (isObject(inner)) {
    const nested = extractErrorInfo(inner);
    return {
      ...nested,
      message: nested.message ?? stringField(value, "message"),
      type: nested.type ?? stringField(value, "type"),
    };
  }
  // AWS services spell it `Message` in some error bodies.
  const message =
    stringField(value, "message") ?? stringField(value, "Message") ?? stringField(value, "detail");
  return { message, ...codeFields(value) };
}

function codeFields(value: Record<string, unknown>): ErrorInfo {
  const rawCode = value.code;
  const status = stringField(value, "status");
  return {
    code: typeof rawCode === "string" ? rawCode : status,
    numericCode: typeof rawCode === "number" ? rawCode : undefined,
    type: value.type === "error" ? undefined : stringField(value, "type"),
  };
}

function operatorMessage(raw: string, status?: number): string {
  const oneLine =
    redactSecrets(raw).replace(/\s+/g, " ").trim() || (status ? `HTTP ${status}` : "provider error");
  return oneLine.length > MAX_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_MESSAGE_CHARS - 1)}…` : oneLine;
}

/**
 * A success status with an HTML page for a body (a login page, captive portal or web UI at the
 * base URL): said as such at once, never retried as an incomplete stream.
 */
function htmlPageError(status: number, body: string): ProviderError {
  const page = plainText(body).replace(/\s+/g, " ").slice(0, 80);
  return new ProviderError({
    errorClass: "unexpected_response",
    status,
    retryable: false,
    message: `the server answered with an HTML page${page ? ` ("${redactSecrets(page)}")` : ""} (HTTP ${status}, text/html), not a model API response: check the base URL`,
  });
}

/** Servers asked to stream may send their error as SSE (`data: {"error":…}`): the first frame's data. */
function firstSseData(body: string): string {
  const match = /^(?:(?::[^\n]*|event:[^\n]*)\r?\n)*data: ?(.*)$/m.exec(body.trimStart());
  return match?.[1] ?? "";
}

/** A body as one line of text: a proxy's HTML error page by its title, or its text without tags. */
function plainText(body: string): string {
  const text = body.trim();
  if (!/^<(?:!doctype|html|head|body|h1|center)\b/i.test(text)) return text;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  return title || text.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<[^>]+>/gi, " ").trim();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function header(headers: Record<string, string>, name: string): string | undefined {
  if (headers[name] !== undefined) return headers[name];
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringField(value: Record<string, unknown>, key: string): string | undefined {
  const field = value[key];
  return typeof field === "string" ? field : undefined;
}
