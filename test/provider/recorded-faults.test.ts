// Every recorded provider stream, broken by the network the ways R-RETRY and R-PROV-3 speak of,
// through the real retry policy over HTTP:
// - cut after its first frame, then served whole: one retry, the failed attempt's streamed output
//   discarded, its usage (if it had any) still reported, the answer exactly the recording's;
// - cut right after its finish (OpenAI finish_reason, Anthropic stop_reason): the answer is whole,
//   so it is one request, never re-sent (that would bill it twice).
// The folder is optional: without it the suite says so and skips.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/provider/errors.js";
import { streamWithRetry } from "../../src/provider/retry.js";
import type { ProviderEvent, StreamResult } from "../../src/provider/types.js";
import type { Usage } from "../../src/vocab/usage.js";
import { FakeProvider } from "../support/fake-provider.js";
import {
  adapterFor,
  type Frame,
  framesOf,
  type Playable,
  playableRecordings,
  render,
  STREAM_DIR_CANDIDATES,
  STREAMS_DIR,
} from "../support/recordings.js";
import { baseRequest } from "./openai-helpers.js";

const RETRY = { maxRetries: 2, baseDelaySeconds: 0.01, factor: 2, jitter: 0, maxDelaySeconds: 0.01 };

function dataOf(frame: Frame): any {
  const line = frame.find((l) => l.startsWith("data:"));
  try {
    return line ? JSON.parse(line.slice(5)) : undefined;
  } catch {
    return undefined;
  }
}

/** Index of the frame that carries the finish (finish_reason / stop_reason), or -1. */
function finishFrame(frames: Frame[]): number {
  return frames.findIndex((frame) => {
    const data = dataOf(frame);
    return Boolean(data?.choices?.some((c: any) => c?.finish_reason) || data?.delta?.stop_reason);
  });
}

interface Played {
  result?: StreamResult;
  error?: ProviderError;
  usages: Array<[Usage, number]>;
  discards: number[];
  retries: number;
  requests: number;
}

async function play(
  provider: FakeProvider,
  recording: Playable,
  scripts: Parameters<FakeProvider["enqueue"]>,
) {
  provider.enqueue(...scripts);
  const before = provider.requests.length;
  const played: Played = { usages: [], discards: [], retries: 0, requests: 0 };
  try {
    played.result = await streamWithRetry(adapterFor(recording.api, provider.baseUrl), baseRequest(), {
      retry: RETRY,
      signal: new AbortController().signal,
      idleTimeoutMs: 20_000,
      deadline: null,
      onEvent: (_e: ProviderEvent) => {},
      onAttemptUsage: (usage, attempt) => played.usages.push([usage, attempt]),
      onDiscard: (attempt) => played.discards.push(attempt),
      onRetry: () => played.retries++,
      sleep: async () => {},
    });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    played.error = error;
  }
  played.requests = provider.requests.length - before;
  return played;
}

/** What the adapter makes of the first `count` frames alone: the usage the cut attempt had seen. */
async function usageOfPrefix(
  provider: FakeProvider,
  recording: Playable,
  count: number,
): Promise<Usage | undefined> {
  const frames = framesOf(recording.response).slice(0, count);
  provider.enqueue({ frames: render(frames), fault: { kind: "reset_after", frames: count } });
  try {
    for await (const _ of adapterFor(recording.api, provider.baseUrl).stream(baseRequest(), {
      signal: new AbortController().signal,
      idleTimeoutMs: 20_000,
    })) {
    }
  } catch (error) {
    if (error instanceof ProviderError) return error.usage;
    throw error;
  }
  return undefined;
}

if (!STREAMS_DIR) {
  console.log(`recorded faults: no folder at ${STREAM_DIR_CANDIDATES.join(" or ")}; the suite is skipped`);
  describe("recorded streams, broken by the network", () => {
    it.skip(`skipped: no recorded streams folder (looked in ${STREAM_DIR_CANDIDATES.join(", ")})`, () => {});
  });
} else {
  describe(`recorded streams, broken by the network (${STREAMS_DIR})`, () => {
    let provider: FakeProvider;
    beforeAll(async () => {
      provider = await FakeProvider.start();
    });
    afterAll(async () => {
      await provider.close();
    });
    const cases = playableRecordings();

    it("cut after the first frame, then served whole: one retry, the recording's answer, every usage reported", async () => {
      const wrong: string[] = [];
      for (const recording of cases) {
        const frames = framesOf(recording.response);
        if (frames.length < 3) continue;
        const whole = await play(provider, recording, [{ frames: render(frames) }]);
        // A recording that is itself a failed attempt (a mid-stream error) has no answer to reach.
        if (!whole.result) continue;
        const cutUsage = await usageOfPrefix(provider, recording, 1);
        const played = await play(provider, recording, [
          { frames: render(frames), fault: { kind: "reset_after", frames: 1 } },
          { frames: render(frames) },
        ]);
        const expectedUsages = [
          ...(cutUsage ? [[cutUsage, 1]] : []),
          ...whole.usages.map(([usage]) => [usage, 2]),
        ];
        const got = {
          result: played.result,
          requests: played.requests,
          retries: played.retries,
          usages: played.usages,
        };
        const want = { result: whole.result, requests: 2, retries: 1, usages: expectedUsages };
        if (JSON.stringify(got) !== JSON.stringify(want))
          wrong.push(`${recording.label}: got ${JSON.stringify(got).slice(0, 400)}`);
      }
      expect(wrong).toEqual([]);
    });

    it("cut right after the finish: the answer is whole, one request, nothing re-sent", async () => {
      const wrong: string[] = [];
      let played = 0;
      for (const recording of cases) {
        const frames = framesOf(recording.response);
        const finish = finishFrame(frames);
        if (finish < 0) continue;
        played++;
        const whole = await play(provider, recording, [{ frames: render(frames) }]);
        const cut = await play(provider, recording, [
          { frames: render(frames), fault: { kind: "reset_after", frames: finish + 1 } },
          { frames: render(frames) },
        ]);
        const answer = (r?: StreamResult) =>
          r && { text: r.text, reasoning: r.reasoning, toolCalls: r.toolCalls, finish: r.finish };
        if (cut.requests !== 1 || JSON.stringify(answer(cut.result)) !== JSON.stringify(answer(whole.result)))
          wrong.push(
            `${recording.label}: ${cut.requests} requests, ${JSON.stringify(answer(cut.result))?.slice(0, 300)}`,
          );
        // The leftover script of a re-send that did not happen.
        provider.setFallback(undefined);
        while (provider.pending > 0) await play(provider, recording, []);
      }
      expect(played).toBeGreaterThan(10);
      expect(wrong).toEqual([]);
    });
  });
}
