// The normalized provider vocabulary (R-PROV-1). Adapters translate between this and a wire
// protocol; nothing here knows about turns, tools' meaning or the record.

export interface TextPart {
  type: "text";
  text: string;
}

/** An image travels as base64 data; `ref` names its stored attachment (content hash) when there is one. */
export interface ImagePart {
  type: "image";
  mediaType: string;
  data: string;
  ref?: string;
}

export type ContentPart = TextPart | ImagePart;

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model sent it; parsed only by the tool layer (R-PROV-2, R-TOOL-5). */
  arguments: string;
  /** Opaque provider data that must be echoed back (e.g. Gemini `extra_content`). */
  extra?: Record<string, unknown>;
}

/** Anthropic thinking block, kept with its signature so it can be sent back verbatim. */
export interface ThinkingBlock {
  thinking: string;
  signature: string;
  /** An Anthropic `redacted_thinking` block: `thinking` is "" and `signature` holds its opaque `data`. */
  redacted?: true;
}

export interface UserMessage {
  role: "user";
  content: ContentPart[];
}

export interface AssistantMessage {
  role: "assistant";
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  thinkingBlocks?: ThinkingBlock[];
  /**
   * The chat-completions delta field that carried `reasoning` (`reasoning_content` or `reasoning`),
   * so it can be echoed back in that field where the API requires it (R-PROV-3).
   */
  reasoningField?: ReasoningField;
  /**
   * Output the provider must get back exactly, in the order it came, that has no normalized form:
   * Responses reasoning items (`encrypted_content`) and `web_search_call` items, Anthropic
   * `server_tool_use` / `web_search_tool_result` blocks (R-PROV-9, R-PROV-11). Sent back only to
   * the protocol that produced it, before the message's text and tool calls.
   */
  providerItems?: ProviderItem[];
}

export type WireApi = "openai-chat" | "openai-responses" | "anthropic-messages";

export interface ProviderItem {
  api: WireApi;
  item: Record<string, unknown>;
}

export type ThinkingLevel = "off" | "low" | "medium" | "high";
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "low", "medium", "high"];

/** Tools the provider runs itself (R-PROV-11); tern only switches them on. */
export type HostedTool = "web_search";
export const HOSTED_TOOLS: readonly HostedTool[] = ["web_search"];

export type ReasoningField = "reasoning_content" | "reasoning";

export interface ToolResultMessage {
  role: "tool";
  toolCallId: string;
  toolName: string;
  content: ContentPart[];
  isError: boolean;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface NormalizedRequest {
  model: string;
  system: string;
  tools: ToolSpec[];
  messages: Message[];
  maxOutputTokens?: number;
  /** Whether the model accepts image input; otherwise images become text placeholders (R-PROV-8). */
  images: boolean;
  /**
   * `none`: the tools stay defined (a history holding tool calls needs them on some protocols) but
   * the model may not call one, e.g. a compaction summary (R-COMP-2). Absent = the model chooses.
   */
  toolChoice?: "auto" | "none";
  /** R-PROV-10: the reasoning level; absent or `off` sends nothing. */
  thinking?: ThinkingLevel;
  /** R-PROV-11: provider-run tools for this request. */
  hostedTools?: HostedTool[];
  /** The session id: Responses `prompt_cache_key`, so rounds of one session share a cache. */
  cacheKey?: string;
}

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | `other:${string}`;

/** R-PROV-6: `prompt` is ALL input tokens, cached ones included. */
export interface Usage {
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
  /** Provider-run web searches this request made (billed per search, R-PROV-11); absent = 0. */
  webSearches?: number;
}

export interface StreamResult {
  text: string;
  reasoning: string;
  thinkingBlocks: ThinkingBlock[];
  /** See AssistantMessage.reasoningField; absent when no reasoning came or the protocol has no such field. */
  reasoningField?: ReasoningField;
  /** See AssistantMessage.providerItems. */
  providerItems?: ProviderItem[];
  toolCalls: ToolCall[];
  finish: FinishReason;
  /** The provider's own finish value, `null` when it sent none and the reason was inferred. */
  rawFinish: string | null;
  usage: Usage | null;
}

export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; argumentsDelta: string }
  /** A provider-run tool (web search) started or finished; shown, never run or approved by tern. */
  | { type: "hosted_tool"; name: HostedTool; status: "started" | "done"; detail: string }
  /** The latest cumulative usage snapshot of this request (not a delta). */
  | { type: "usage"; usage: Usage }
  | { type: "done"; result: StreamResult };

export interface StreamOptions {
  signal: AbortSignal;
  /** No byte for this long = a retryable `timeout` error (streamIdleTimeoutSeconds). */
  idleTimeoutMs: number;
}

export interface ProviderAdapter {
  readonly api: WireApi;
  /** Streams one request. Throws `ProviderError` for every failure; ends with one `done` event. */
  stream(request: NormalizedRequest, options: StreamOptions): AsyncGenerator<ProviderEvent, void, void>;
}

/** Per-model wire quirks a server's published rules require (config `models.<id>.compat`). */
export interface ProviderCompat {
  /**
   * openai-chat: send the reasoning of the current turn's assistant messages back in the field it
   * came in (DeepSeek thinking mode rejects a tool continuation without it). Absent = only for
   * messages whose reasoning arrived as `reasoning_content`.
   */
  echoReasoning?: boolean;
  /** openai-chat: the output-limit field; absent = `max_completion_tokens` for api.openai.com, else `max_tokens`. */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** openai-chat: send `reasoning_effort` for the thinking level (the catalogue's reasoning models). */
  reasoningEffort?: boolean;
  /**
   * openai-responses: `false` for models known not to reason, which refuse
   * `include: ["reasoning.encrypted_content"]` ("Encrypted content is not supported with this model").
   */
  encryptedReasoning?: boolean;
}

export interface ProviderEndpoint {
  api: WireApi;
  /** Includes the version path (`…/v1`), R-PROV-0. */
  baseUrl: string;
  apiKey?: string;
  headers: Record<string, string>;
  compat?: ProviderCompat;
}
