// The recorded provider streams of the shared `streams/` folder (kept outside the repository), as
// frames a test can re-frame, cut or replay, and an adapter for each protocol they speak. The
// folder is optional: `STREAMS_DIR` is undefined when it is absent, and suites say so and skip.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createAnthropicAdapter } from "../../src/provider/anthropic-messages.js";
import { createOpenAIChatAdapter } from "../../src/provider/openai-chat.js";
import { createOpenAIResponsesAdapter } from "../../src/provider/openai-responses.js";
import type { ProviderAdapter } from "../../src/provider/types.js";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
export const STREAM_DIR_CANDIDATES = [resolve(REPO_ROOT, "../shared/streams"), "/work/shared/streams"];
export const STREAMS_DIR = STREAM_DIR_CANDIDATES.find((dir) => existsSync(dir));

export type Api = "openai" | "anthropic" | "responses";

export interface RecordedResponse {
  status: number;
  events: string[];
  end?: string;
}

/** One SSE frame's lines (`event: x`, `data: {...}`), without the blank line. */
export type Frame = string[];

export interface Playable {
  label: string;
  api: Api;
  response: RecordedResponse;
}

export function framesOf(response: RecordedResponse): Frame[] {
  return response.events.map((event) => event.split(/\r\n|\r|\n/).filter((line) => line !== ""));
}

/** Frames as written, each followed by its blank line, with `eol` ending every line. */
export const render = (frames: Frame[], eol = "\n"): string[] =>
  frames.map((lines) => lines.join(eol) + eol + eol);

/** Every whole 2xx response of every recording (not the ones the recording cut on purpose). */
export function playableRecordings(): Playable[] {
  if (!STREAMS_DIR) return [];
  const out: Playable[] = [];
  const files = readdirSync(STREAMS_DIR)
    .filter((file) => file.endsWith(".json"))
    .sort();
  for (const file of files) {
    const rec = JSON.parse(readFileSync(join(STREAMS_DIR, file), "utf8"));
    const api = String(rec.api).startsWith("anthropic") ? "anthropic" : "openai";
    (rec.responses as RecordedResponse[]).forEach((response, n) => {
      if (response.status < 200 || response.status >= 300 || response.end !== undefined) return;
      out.push({ label: `${file} #${n + 1}`, api, response });
    });
  }
  return out;
}

export function adapterFor(api: Api, baseUrl: string): ProviderAdapter {
  const endpoint = { baseUrl, apiKey: "k", headers: {} };
  if (api === "anthropic") return createAnthropicAdapter({ api: "anthropic-messages", ...endpoint });
  if (api === "responses") return createOpenAIResponsesAdapter({ api: "openai-responses", ...endpoint });
  return createOpenAIChatAdapter({ api: "openai-chat", ...endpoint });
}
