// What an adapter takes and gives (R-PROV-1): the normalized request, stream events and result,
// and an endpoint's wire quirks. Adapters translate between these and a wire protocol; the
// messages inside come from the shared vocabulary (src/vocab/).
import type { HostedTool, ThinkingLevel } from "../vocab/levels.js";
import type {
  EndpointAuth,
  Message,
  ProviderItem,
  ReasoningField,
  ThinkingBlock,
  ToolCall,
  ToolSpec,
  WireApi,
} from "../vocab/messages.js";
import type { Usage } from "../vocab/usage.js";

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
  /** R-AUTO-1: the JSON Schema the final answer must follow, on wires that enforce one. */
  responseSchema?: Record<string, unknown>;
}

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | `other:${string}`;

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
  /** Absent = the protocol's own key header (R-PROV-12..15). */
  auth?: EndpointAuth;
  /**
   * Vertex AI's Anthropic route: `<baseUrl>/models/<model>:streamRawPredict` with
   * `anthropic_version: "vertex-2023-10-16"` and no `model` in the body (R-PROV-13).
   */
  vertexAnthropic?: boolean;
}
