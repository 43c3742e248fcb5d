// Every recorded provider stream of the shared `streams/` folder, re-framed the ways SSE allows
// (CRLF or lone CR line ends, a byte-order mark, keep-alive comments, `data:` without its space,
// `id:`/`retry:` fields, heartbeat frames, data split over several lines, frames cut into small
// writes, a last frame without its blank line, the stream labelled as JSON) or with content a
// server may add or leave out (no [DONE] after a finish, usage repeated, `usage: null` frames,
// an Azure prompt-filter frame, message_delta twice, no message_stop after a stop reason, no
// `event:` lines, unknown event types), must read exactly like the recording as sent: same text,
// reasoning, tool calls, finish, usage, thinking blocks and hosted items. The adapter is played
// over real HTTP by the fake provider; a built Responses API stream joins them, as no recording
// of that protocol exists yet. The folder is optional: without it the suite says so and skips.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/provider/errors.js";
import type { ProviderEvent } from "../../src/provider/types.js";
import { FakeProvider } from "../support/fake-provider.js";
import {
  type Api,
  adapterFor,
  type Frame,
  framesOf,
  playableRecordings,
  render,
  STREAM_DIR_CANDIDATES,
  STREAMS_DIR,
} from "../support/recordings.js";
import { responsesStream } from "../support/responses-script.js";
import { baseRequest } from "./openai-helpers.js";

interface Variant {
  name: string;
  /** Which protocols it applies to (all when absent). */
  only?: Api;
  /** The body as written, in chunks. */
  render(frames: Frame[]): string[];
  /** Response headers over the fake provider's own. */
  headers?: Record<string, string>;
}

const join2 = (frames: Frame[], eol: string) => render(frames, eol);

const VARIANTS: Variant[] = [
  { name: "CRLF line ends", render: (f) => join2(f, "\r\n") },
  { name: "lone CR line ends", render: (f) => join2(f, "\r") },
  { name: "a byte-order mark before the first frame", render: (f) => ["\uFEFF", ...join2(f, "\n")] },
  {
    name: "a keep-alive comment before every frame",
    render: (f) => join2(f, "\n").map((frame) => `: keep-alive\n\n${frame}`),
  },
  {
    name: "`data:` and `event:` without the space",
    render: (f) =>
      join2(
        f.map((lines) => lines.map((line) => line.replace(/^(data|event): /, "$1:"))),
        "\n",
      ),
  },
  {
    name: "`id:` and `retry:` fields in every frame",
    render: (f) =>
      join2(
        f.map((lines, n) => [`id: ${n + 1}`, ...lines, "retry: 3000"]),
        "\n",
      ),
  },
  {
    name: "an empty heartbeat frame between frames",
    render: (f) => join2(f, "\n").map((frame) => `data:\n\n${frame}`),
  },
  {
    name: "the JSON spread over several data lines",
    render: (f) =>
      join2(
        f.map((lines) =>
          lines.flatMap((line) => {
            if (!line.startsWith("data: {")) return [line];
            // Pretty-printed JSON: each line of it its own `data:` line (joined back with \n).
            const pretty = JSON.stringify(JSON.parse(line.slice(6)), null, 1);
            return pretty.split("\n").map((part) => `data: ${part}`);
          }),
        ),
        "\n",
      ),
  },
  {
    name: "frames cut into 5-character writes",
    render: (f) => join2(f, "\n").flatMap((frame) => frame.match(/[\s\S]{1,5}/g) ?? []),
  },
  {
    name: "the last frame without its blank line",
    render: (f) => {
      const out = join2(f, "\n");
      out[out.length - 1] = out[out.length - 1].replace(/\n\n$/, "");
      return out;
    },
  },
  {
    name: "the event stream labelled application/json",
    render: (f) => join2(f, "\n"),
    headers: { "content-type": "application/json" },
  },
  {
    name: "a ping event between every frame",
    only: "anthropic",
    render: (f) => join2(f, "\n").map((frame) => `event: ping\ndata: {"type": "ping"}\n\n${frame}`),
  },
  {
    name: "an `event:` line without data between frames",
    render: (f) => join2(f, "\n").map((frame) => `event: ping\n\n${frame}`),
  },
];

/** The parsed JSON of a frame's data line, or undefined (`[DONE]`, comments). */
function dataOf(frame: Frame): any {
  const line = frame.find((l) => l.startsWith("data:"));
  try {
    return line ? JSON.parse(line.slice(5)) : undefined;
  } catch {
    return undefined;
  }
}

const withData = (frame: Frame, data: unknown): Frame => [
  ...frame.filter((l) => !l.startsWith("data:")),
  `data: ${JSON.stringify(data)}`,
];

const hasFinish = (f: Frame[]) =>
  f.some((frame) => dataOf(frame)?.choices?.some((c: any) => c?.finish_reason));
const hasStopReason = (f: Frame[]) => f.some((frame) => dataOf(frame)?.delta?.stop_reason);

/** Content a server may add or leave out without changing what the stream means. */
const CONTENT_VARIANTS: Variant[] = [
  {
    name: "no [DONE] after a finish reason",
    only: "openai",
    render: (f) => join2(hasFinish(f) ? f.filter((frame) => !frame.includes("data: [DONE]")) : f, "\n"),
  },
  {
    name: "each usage repeated in a frame of its own (counted once)",
    only: "openai",
    render: (f) =>
      join2(
        f.flatMap((frame) => {
          const usage = dataOf(frame)?.usage;
          return usage ? [frame, [`data: ${JSON.stringify({ choices: [], usage })}`]] : [frame];
        }),
        "\n",
      ),
  },
  {
    name: '"usage": null on every frame without usage',
    only: "openai",
    render: (f) =>
      join2(
        f.map((frame) => {
          const data = dataOf(frame);
          return data && typeof data === "object" && !("usage" in data)
            ? withData(frame, { ...data, usage: null })
            : frame;
        }),
        "\n",
      ),
  },
  {
    name: "an Azure prompt-filter frame first",
    only: "openai",
    render: (f) => [
      `data: ${JSON.stringify({ choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] })}\n\n`,
      ...join2(f, "\n"),
    ],
  },
  {
    name: "message_delta sent twice (cumulative usage, counted once)",
    only: "anthropic",
    render: (f) =>
      join2(
        f.flatMap((frame) => (dataOf(frame)?.type === "message_delta" ? [frame, frame] : [frame])),
        "\n",
      ),
  },
  {
    name: "no message_stop after a stop reason",
    only: "anthropic",
    render: (f) =>
      join2(hasStopReason(f) ? f.filter((frame) => dataOf(frame)?.type !== "message_stop") : f, "\n"),
  },
  {
    name: "no `event:` lines (the type is in the data)",
    only: "anthropic",
    render: (f) =>
      join2(
        f.map((frame) => frame.filter((line) => !line.startsWith("event:"))),
        "\n",
      ),
  },
  {
    name: "an unknown event type before every frame",
    render: (f) =>
      join2(f, "\n").map(
        (frame) =>
          `event: future_event\ndata: ${JSON.stringify({ type: "future_event", index: 0 })}\n\n${frame}`,
      ),
  },
];

interface Reading {
  text: string;
  reasoning: string;
  error?: string;
  result?: unknown;
}

async function read(
  provider: FakeProvider,
  api: Api,
  body: string[],
  headers?: Record<string, string>,
): Promise<Reading> {
  provider.enqueue({ frames: body, headers });
  const adapter = adapterFor(api, provider.baseUrl);
  const events: ProviderEvent[] = [];
  const reading: Reading = { text: "", reasoning: "" };
  try {
    for await (const event of adapter.stream(baseRequest(), {
      signal: new AbortController().signal,
      idleTimeoutMs: 20_000,
    })) {
      events.push(event);
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    reading.error = `${error.errorClass}: ${error.message}`;
  }
  for (const event of events) {
    if (event.type === "text_delta") reading.text += event.text;
    if (event.type === "reasoning_delta") reading.reasoning += event.text;
    if (event.type === "done") reading.result = event.result;
  }
  return reading;
}

if (!STREAMS_DIR) {
  console.log(`recorded variants: no folder at ${STREAM_DIR_CANDIDATES.join(" or ")}; the suite is skipped`);
  describe("recorded streams, re-framed", () => {
    it.skip(`skipped: no recorded streams folder (looked in ${STREAM_DIR_CANDIDATES.join(", ")})`, () => {});
  });
} else {
  describe(`recorded streams, re-framed (${STREAMS_DIR})`, () => {
    let provider: FakeProvider;
    beforeAll(async () => {
      provider = await FakeProvider.start();
    });
    afterAll(async () => {
      await provider.close();
    });

    // No Responses API recording exists yet: the builder's stream (reasoning, text, a call, a
    // hosted search, usage details) stands in for one.
    const responses = responsesStream()
      .reasoning("Plan: read it.", "enc-1", ["Plan: ", "read it."])
      .webSearch("tern docs")
      .text("Reading the file.", ["Reading ", "the file."])
      .functionCall({
        callId: "call_1",
        name: "read_file",
        args: { path: "a.ts" },
        chunks: ['{"path":', '"a.ts"}'],
      })
      .usage({ input_tokens: 120, output_tokens: 40, cached_tokens: 100, reasoning_tokens: 30 })
      .build();
    const cases = [
      ...playableRecordings(),
      {
        label: "responses builder stream",
        api: "responses" as const,
        response: { status: 200, events: responses.frames!.map((frame) => frame.trimEnd()) },
      },
    ];
    it("finds whole recorded responses to re-frame", () => {
      expect(cases.length).toBeGreaterThan(10);
    });

    for (const variant of [...VARIANTS, ...CONTENT_VARIANTS]) {
      it(variant.name, async () => {
        const wrong: string[] = [];
        let played = 0;
        for (const { label, api, response } of cases) {
          if (variant.only && variant.only !== api) continue;
          const frames = framesOf(response);
          const baseline = await read(provider, api, join2(frames, "\n"));
          const varied = await read(provider, api, variant.render(frames), variant.headers);
          played++;
          try {
            expect(varied).toEqual(baseline);
          } catch {
            wrong.push(`${label}: ${JSON.stringify(varied).slice(0, 300)}`);
          }
        }
        expect(played).toBeGreaterThan(0);
        expect(wrong, `read differently when re-framed as: ${variant.name}`).toEqual([]);
      });
    }
  });
}
