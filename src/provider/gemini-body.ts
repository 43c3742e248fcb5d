// The Gemini request body as bytes, its contents kept between rounds (history-bytes.ts): only the
// newest content is built again each round (a later tool result or prompt of its role joins it).
// A call's Gemini id, which its functionResponse repeats, is carried from the closed contents.
// The bytes equal JSON.stringify(buildGeminiBody()).
import { buildContents, buildGeminiBody, type Content, geminiTools } from "./gemini-request.js";
import { bodyChunks, encodeHistory, historyMemos, toolsJson } from "./history-bytes.js";
import type { NormalizedRequest } from "./types.js";

const memos = historyMemos();

export function geminiBodyChunks(request: NormalizedRequest): Buffer[] {
  const toolsAsText = request.tools.length === 0;
  const history = encodeHistory<Content>(
    memos,
    request.messages,
    `${request.images}:${toolsAsText}`,
    true,
    (from, carry) => {
      const starts: number[] = [];
      const wireIds = (carry as Map<string, string> | undefined) ?? new Map<string, string>();
      const entries = buildContents(request.messages, request.images, toolsAsText, from, starts, wireIds);
      return { entries, starts, carry: wireIds };
    },
  );
  const body = buildGeminiBody(request, []);
  const tools =
    body.tools !== undefined ? toolsJson(request.tools, "gemini", () => geminiTools(request)) : undefined;
  return bodyChunks(body, "contents", history, { tools });
}
