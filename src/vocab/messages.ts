// The words every floor shares: a conversation's messages and their content parts, and the
// tool definitions a request carries (R-PROV-1). Pure data shapes; this folder imports nothing.

export interface TextPart {
  type: "text";
  text: string;
  /** A whole file `@path` attached (R-WF-4): counts as a read of it for read-before-edit. */
  attached?: { path: string; mtimeMs: number };
  /**
   * An `@path` whose real path leads outside the workspace (§10): until a person approves `real`
   * the part's text only says so and the block waits in `held`; `never` (TERN_HOME, `.git`
   * internals) is refused whatever the answer. The engine settles it before the prompt is recorded.
   */
  outside?: { shown: string; real: string; held?: string; never?: string };
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

/**
 * A call's arguments as an object, for showing them (the tool layer parses them for running):
 * undefined when they are not a JSON object.
 */
export function argumentsObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
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

/**
 * The wire protocols tern speaks; a provider's `api` in config. `google-gemini` is Gemini's
 * generateContent (Gemini API and Vertex AI), `bedrock-converse` Amazon Bedrock's ConverseStream.
 */
export type WireApi =
  | "openai-chat"
  | "openai-responses"
  | "anthropic-messages"
  | "google-gemini"
  | "bedrock-converse";

/**
 * How a request proves who sends it, beyond the default of each protocol (Bearer for OpenAI,
 * `x-api-key` for Anthropic): the key in a named header (Gemini `x-goog-api-key`, Azure `api-key`),
 * a Google access token from Application Default Credentials (Vertex AI), or AWS SigV4 from the
 * AWS credential chain (Bedrock; with an API key set, that key as a Bearer token instead).
 */
export type EndpointAuth =
  | { kind: "key-header"; header: string }
  | { kind: "google-adc" }
  | { kind: "aws-sigv4"; region: string };

export interface ProviderItem {
  api: WireApi;
  item: Record<string, unknown>;
}

export type ReasoningField = "reasoning_content" | "reasoning";

export interface ToolResultMessage {
  role: "tool";
  toolCallId: string;
  toolName: string;
  content: ContentPart[];
  isError: boolean;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as the model sees it: what the registry offers and a request carries. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}
