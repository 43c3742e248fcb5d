// Replays every recorded provider stream of the shared `streams/` folder (real traffic from public
// SDK fixtures, kept outside the repository) through the built CLI against a real local HTTP
// server, and checks everything each file's `expect` says: exit code, stop reason, requests,
// retries, per-round text / reasoning / tool calls / finish, usage events, what the next request
// echoes. The folder is optional: when it is absent the suite says so and skips.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jsonEvents, runCli } from "../support/cli.js";
import { FakeProvider, type ScriptedResponse } from "../support/fake-provider.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const CANDIDATES = [resolve(REPO_ROOT, "../shared/streams"), "/work/shared/streams"];
const STREAMS_DIR = CANDIDATES.find((dir) => existsSync(dir));

interface Recording {
  api: string;
  provider: string;
  exercises: string;
  responses: { status: number; headers?: Record<string, string>; events: string[]; end?: string }[];
  expect: Record<string, any>;
}

const files = STREAMS_DIR
  ? readdirSync(STREAMS_DIR)
      .filter((f) => f.endsWith(".json"))
      .sort()
  : [];

/** Which provider plays a recording: the configured Anthropic one, or an ad-hoc chat-completions one. */
function modelArgs(api: string, file: string, baseUrl: string): string[] {
  if (api === "anthropic" || api === "anthropic-messages") return ["--model", "rec/recorded-model"];
  if (api === "openai" || api === "openai-chat")
    return ["--model", "replay/recorded-model", "--base-url", baseUrl];
  throw new Error(`${file}: api ${JSON.stringify(api)} has no adapter in the replay test yet; teach it`);
}

/** A recorded response as the local server plays it: SSE frames for 2xx, the body otherwise. */
function toScript(response: Recording["responses"][number], file: string): ScriptedResponse {
  if (response.end !== undefined && response.end !== "close") {
    throw new Error(`${file}: unknown "end" value ${JSON.stringify(response.end)}; teach the replay test`);
  }
  if (response.status < 200 || response.status >= 300) {
    return { status: response.status, headers: response.headers, body: response.events.join("\n") };
  }
  const script: ScriptedResponse = {
    status: response.status,
    headers: response.headers,
    frames: response.events.map((event) => `${event}\n\n`),
  };
  if (response.end === "close") script.fault = { kind: "reset_after", frames: response.events.length };
  return script;
}

/** `expected` holds for `actual`: objects by their expected keys, arrays element by element. */
function assertSubset(actual: unknown, expected: unknown, path: string): void {
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), `${path} is an array`).toBe(true);
    const list = actual as unknown[];
    expect(list.length, `${path}.length`).toBe(expected.length);
    expected.forEach((item, i) => {
      assertSubset(list[i], item, `${path}[${i}]`);
    });
    return;
  }
  if (typeof expected === "object" && expected !== null) {
    expect(typeof actual === "object" && actual !== null, `${path} is an object`).toBe(true);
    for (const [key, value] of Object.entries(expected)) {
      assertSubset((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
    }
    return;
  }
  expect(actual, path).toEqual(expected);
}

const EXPECT_KEYS = [
  "exit",
  "stop_reason",
  "requests",
  "retries",
  "retry_reason",
  "discarded",
  "rounds",
  "usage",
  "turn_usage",
  "final_text",
  "tool_calls_run",
  "error",
  "shows",
  "request_tail",
];
const ROUND_KEYS = ["text", "reasoning", "tool_calls", "finish_reason"];

const usageOf = (u: any) => ({
  prompt: u.prompt,
  completion: u.completion,
  cache_read: u.cache_read,
  cache_write: u.cache_write,
});

if (!STREAMS_DIR) {
  console.log(`recorded streams: no folder at ${CANDIDATES.join(" or ")}; the replay suite is skipped`);
  describe("recorded provider streams", () => {
    it.skip(`skipped: no recorded streams folder (looked in ${CANDIDATES.join(", ")})`, () => {});
  });
} else {
  describe(`recorded provider streams (${STREAMS_DIR})`, () => {
    let dirs: TempDirs;
    let server: FakeProvider;
    beforeEach(async () => {
      dirs = makeTempDirs();
      server = await FakeProvider.start();
      writeFileSync(
        join(dirs.home, "config.json"),
        JSON.stringify({
          retry: { maxRetries: 3, baseDelaySeconds: 0.01, jitter: 0 },
          providers: {
            rec: { api: "anthropic-messages", baseUrl: server.baseUrl, apiKeyEnv: "REC_ANTHROPIC_KEY" },
          },
        }),
      );
    });
    afterEach(async () => {
      await server.close();
      dirs.cleanup();
    });

    it("finds recordings to replay", () => {
      expect(files.length).toBeGreaterThan(0);
    });

    for (const file of files) {
      it(file, async () => {
        const rec: Recording = JSON.parse(readFileSync(join(STREAMS_DIR, file), "utf8"));
        server.enqueue(...rec.responses.map((r) => toScript(r, file)));
        const model = modelArgs(rec.api, file, server.baseUrl);
        const result = await runCli(["run", "--json", "--yes", ...model, "Replay the recorded answer."], {
          home: dirs.home,
          cwd: dirs.workspace,
          env: { REC_ANTHROPIC_KEY: "rec-test-key" },
          timeoutMs: 60_000,
        });
        const events = jsonEvents(result.stdout);
        const of = (type: string) => events.filter((ev) => ev.type === type);
        const end = of("turn_end")[0];
        const want = rec.expect;
        const context = `${file}\nstderr: ${result.stderr.slice(0, 2000)}`;

        // An expectation this test does not know would pass unchecked: refuse it instead.
        expect(
          Object.keys(want).filter((key) => !EXPECT_KEYS.includes(key)),
          "unknown expect keys",
        ).toEqual([]);
        for (const round of want.rounds ?? []) {
          expect(
            Object.keys(round).filter((key) => !ROUND_KEYS.includes(key)),
            "unknown round keys",
          ).toEqual([]);
        }
        if (want.exit !== undefined) expect(result.code, context).toBe(want.exit);
        if (want.stop_reason !== undefined) expect(end?.stop_reason, context).toBe(want.stop_reason);
        if (want.requests !== undefined) expect(server.requests.length, "requests").toBe(want.requests);
        if (want.retries !== undefined) expect(of("retry_scheduled").length, "retries").toBe(want.retries);
        if (want.retry_reason !== undefined) expect(of("retry_scheduled")[0]?.reason).toBe(want.retry_reason);
        if (want.discarded !== undefined)
          expect(of("stream_discarded").length, "discarded").toBe(want.discarded);
        if (want.rounds !== undefined) {
          const rounds = of("assistant_message");
          expect(rounds.length, "rounds").toBe(want.rounds.length);
          want.rounds.forEach((round: any, i: number) => {
            const got = rounds[i];
            expect(got.text, `round ${i + 1} text`).toBe(round.text);
            expect(got.reasoning, `round ${i + 1} reasoning`).toBe(round.reasoning);
            expect(got.finish_reason, `round ${i + 1} finish`).toBe(round.finish_reason);
            if (round.tool_calls !== undefined) {
              expect(got.tool_calls, `round ${i + 1} tool calls`).toEqual(round.tool_calls);
            }
          });
        }
        if (want.usage !== undefined) expect(of("usage").map(usageOf), "usage events").toEqual(want.usage);
        if (want.turn_usage !== undefined) expect(usageOf(end.usage), "turn usage").toEqual(want.turn_usage);
        if (want.final_text !== undefined) expect(of("assistant_message").at(-1)?.text).toBe(want.final_text);
        if (want.tool_calls_run !== undefined) {
          expect(
            of("tool_call").map((c) => c.id),
            "tool calls run",
          ).toEqual(want.tool_calls_run);
        }
        if (want.error !== undefined) assertSubset(of("error")[0], want.error, "error event");
        if (want.shows !== undefined) {
          const shown = [
            ...of("assistant_message").map((m) => m.text),
            ...of("notice").map((n) => n.text),
            ...of("error").map((err) => err.message),
            end?.error?.message ?? "",
          ].join("\n");
          for (const text of want.shows) expect(shown, `shows ${text}`).toContain(text);
        }
        for (const [n, tail] of Object.entries(want.request_tail ?? {})) {
          const body = server.requests[Number(n) - 1]?.body;
          expect(body, `request ${n}`).toBeTruthy();
          const messages: unknown[] = body.messages;
          const expectedTail = tail as unknown[];
          assertSubset(messages.slice(-expectedTail.length), expectedTail, `request ${n} tail`);
        }
      }, 90_000);
    }
  });
}
