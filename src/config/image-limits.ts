// The largest image each provider's API takes (Anthropic 5 MB, OpenAI 20 MB, SPEC §10): prompt
// images over it are refused before sending, tool-result images replaced by a note (R-TOOL-6).
import type { ProviderApi } from "./types.js";

export const IMAGE_LIMIT_BYTES: Record<ProviderApi, number> = {
  "anthropic-messages": 5 * 1024 * 1024,
  "openai-chat": 20 * 1024 * 1024,
  "openai-responses": 20 * 1024 * 1024,
  // Gemini: inline data up to 20 MB per request; Bedrock Converse: 3.75 MB per image.
  "google-gemini": 20 * 1024 * 1024,
  "bedrock-converse": 3.75 * 1024 * 1024,
};
