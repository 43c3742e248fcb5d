// The Bedrock Converse request body as bytes, its history kept between rounds (history-bytes.ts):
// only the newest wire message is built again each round (a later tool result or prompt joins
// it, and Claude's cache point goes on it). The bytes equal JSON.stringify(buildBedrockBody()).
import {
  bedrockBodyHead,
  bedrockToolConfig,
  buildMessages,
  finishBedrockBody,
  type WireMessage,
} from "./bedrock-request.js";
import { bodyChunks, encodeHistory, historyMemos, toolsJson } from "./history-bytes.js";
import type { NormalizedRequest } from "./types.js";

const memos = historyMemos();

export function bedrockBodyChunks(request: NormalizedRequest): Buffer[] {
  const toolsAsText = request.tools.length === 0;
  const history = encodeHistory<WireMessage>(
    memos,
    request.messages,
    `${request.images}:${toolsAsText}`,
    true,
    (from) => {
      const starts: number[] = [];
      const entries = buildMessages(request.messages, request.images, toolsAsText, from, starts);
      return { entries, starts };
    },
  );
  const body = bedrockBodyHead(request);
  const tail = history.lastClosed ? [history.lastClosed, ...history.open] : history.open;
  finishBedrockBody(body, request, tail, history.open);
  const toolConfig =
    body.toolConfig !== undefined
      ? toolsJson(request.tools, `bedrock:${request.model}`, () => bedrockToolConfig(request))
      : undefined;
  return bodyChunks(body, "messages", history, { toolConfig });
}
