// R-RETRY-1: a refusal of the asked output limit that says how much would fit is answered by
// asking for that much, once, at once (the input fits; only the output does not). Each server
// words it its own way; every wording gives the limit, the input and the asked output.

interface Reading {
  limit: number;
  input: number;
  asked: number;
}

const WORDINGS: ReadonlyArray<[RegExp, (m: RegExpExecArray) => Reading]> = [
  // Anthropic: "input length and `max_tokens` exceed context limit: 188059 + 20000 > 200000"
  [
    /input length and `?max_tokens`? exceed context limit:\s*(\d+)\s*\+\s*(\d+)\s*>\s*(\d+)/i,
    (m) => ({ input: +m[1], asked: +m[2], limit: +m[3] }),
  ],
  // Older vLLM and OpenAI: "maximum context length is 4096 tokens. However, you requested 8300
  // tokens (108 in the messages, 8192 in the completion)"
  [
    /maximum context length is (\d+) tokens\. However, you requested \d+ tokens \((\d+) in the messages, (\d+) in the completion\)/i,
    (m) => ({ limit: +m[1], input: +m[2], asked: +m[3] }),
  ],
  // vLLM: "'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's maximum context
  // length is 4096 tokens and your request has 2778 input tokens (8000 > 4096 - 2778)."
  [
    /is too large: (\d+)\. This model's maximum context length is (\d+) tokens and your request has (\d+) input tokens/i,
    (m) => ({ asked: +m[1], limit: +m[2], input: +m[3] }),
  ],
  // Text Generation Inference: "`inputs` tokens + `max_new_tokens` must be <= 4096. Given: 1000
  // `inputs` tokens and 8192 `max_new_tokens`"
  [
    /must be <= (\d+)\. Given: (\d+) `inputs` tokens and (\d+) `max_new_tokens`/i,
    (m) => ({ limit: +m[1], input: +m[2], asked: +m[3] }),
  ],
  // OpenAI, a model's own output cap: "max_tokens is too large: 32000. This model supports at most
  // 16384 completion tokens, whereas you provided 32000."
  [
    /supports at most (\d+) completion tokens, whereas you provided (\d+)/i,
    (m) => ({ limit: +m[1], input: 0, asked: +m[2] }),
  ],
];

/** The output limit that fits beside the input, when the message says the input alone fits. */
export function maxOutputTokensFit(message: string | undefined): number | undefined {
  if (!message) return undefined;
  for (const [pattern, read] of WORDINGS) {
    const match = pattern.exec(message);
    if (!match) continue;
    const { limit, input, asked } = read(match);
    const fit = limit - input;
    return fit > 0 && fit < asked ? fit : undefined;
  }
  return undefined;
}
