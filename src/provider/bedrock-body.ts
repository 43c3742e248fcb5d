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
import { bodyChunks, encodeMessages, historyMemos, toolsJson } from "./history-bytes.js";
import type { NormalizedRequest } from "./types.js";

const memos = historyMemos();

export function bedrockBodyChunks(request: NormalizedRequest): Buffer[] {
  const history = encodeMessages<WireMessage>(memos, request, buildMessages);
  const body = bedrockBodyHead(request);
  finishBedrockBody(body, request, history.tail, history.open);
  const toolConfig =
    body.toolConfig !== undefined
      ? toolsJson(request.tools, `bedrock:${request.model}`, () => bedrockToolConfig(request))
      : undefined;
  return bodyChunks(body, "messages", history, { toolConfig });
}
