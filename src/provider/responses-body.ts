// The Responses request body as bytes, its input items kept between rounds (history-bytes.ts):
// each message's items stand alone, so only the messages added since the last round are encoded.
// The bytes equal JSON.stringify(buildResponsesBody()).
import { bodyChunks, encodeHistory, historyMemos, toolsJson } from "./history-bytes.js";
import { buildInput, buildResponsesBody, type Item, responsesTools } from "./responses-request.js";
import type { NormalizedRequest, ProviderCompat } from "./types.js";

const memos = historyMemos();

export function responsesBodyChunks(request: NormalizedRequest, compat: ProviderCompat = {}): Buffer[] {
  const toolsAsText = request.tools.length === 0;
  const reasoningItems = compat.encryptedReasoning !== false;
  const history = encodeHistory<Item>(
    memos,
    request.messages,
    `${request.images}:${toolsAsText}:${reasoningItems}`,
    false,
    (from) => ({
      entries: buildInput(request.messages, request.images, toolsAsText, reasoningItems, from),
      starts: [],
    }),
  );
  const body = buildResponsesBody(request, compat, []);
  const tools =
    body.tools !== undefined && !request.hostedTools?.length
      ? toolsJson(request.tools, "responses", () => responsesTools(request))
      : undefined;
  return bodyChunks(body, "input", history, { tools });
}
