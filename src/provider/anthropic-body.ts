// The Anthropic Messages request body as bytes, its history kept between rounds
// (history-bytes.ts): only the newest wire message is built again each round (a later tool result
// or prompt joins it, and it carries the cache breakpoint, R-PROV-7). The bytes equal
// JSON.stringify(buildAnthropicBody()).
import {
  anthropicBodyHead,
  anthropicTools,
  buildMessages,
  dropThinking,
  markLastMessageForCache,
  toolLoopStartsWithThinking,
  type WireMessage,
} from "./anthropic-request.js";
import { bodyChunks, encodeMessages, historyMemos, toolsJson } from "./history-bytes.js";
import type { NormalizedRequest } from "./types.js";

const memos = historyMemos();

/** `head` replaces the fields before `messages` (Vertex's Claude: no model, its version first). */
export function anthropicBodyChunks(
  request: NormalizedRequest,
  head: (body: Record<string, unknown>) => Record<string, unknown> = (body) => body,
): Buffer[] {
  const history = encodeMessages<WireMessage>(memos, request, buildMessages);
  markLastMessageForCache(history.open);
  const body = anthropicBodyHead(request);
  if (!toolLoopStartsWithThinking(history.tail)) dropThinking(body, request);
  const tools =
    body.tools !== undefined && !request.hostedTools?.length
      ? toolsJson(request.tools, "anthropic", () => anthropicTools(request))
      : undefined;
  return bodyChunks(head(body), "messages", history, { tools });
}
