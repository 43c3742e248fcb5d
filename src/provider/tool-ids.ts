// Tool-call ids as each API accepts them. A session may hold calls another provider made before a
// model switch, and their ids may break this API's rules: Anthropic takes `^[a-zA-Z0-9_-]+$`
// only (Kimi sends `functions.bash:0`), OpenAI Chat Completions at most 40 characters (vLLM sends
// 46), the Responses API at most 64. The same id always maps to the same wire id, so a call and
// its result stay paired; a hash of the original keeps two rewritten ids apart.

const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;
const CHAT_MAX = 40;
const RESPONSES_MAX = 64;

export function anthropicToolId(id: string): string {
  if (ANTHROPIC_ID.test(id)) return id;
  return withHash(id.replace(/[^a-zA-Z0-9_-]/g, "_"), id, 64);
}

export function chatToolId(id: string): string {
  return id.length <= CHAT_MAX ? id : withHash(id, id, CHAT_MAX);
}

export function responsesCallId(id: string): string {
  return id.length <= RESPONSES_MAX ? id : withHash(id, id, RESPONSES_MAX);
}

/** `base` cut to fit `max` with `_<hash of original>` after it. */
function withHash(base: string, original: string, max: number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < original.length; i++) hash = Math.imul(hash ^ original.charCodeAt(i), 0x01000193);
  const suffix = `_${(hash >>> 0).toString(36)}`;
  return base.slice(0, max - suffix.length) + suffix;
}
