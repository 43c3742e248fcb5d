// Through the built CLI, both output modes: answers that are no model's answer. A 200 with an
// HTML page (a login page or captive portal at the base URL) fails at once saying so, never
// retried as an incomplete stream; a stream that is only `data: [DONE]` is accepted, but the
// empty answer is said out loud.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jsonEvents, runCli } from "../support/cli.js";
import { FakeProvider } from "../support/fake-provider.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let provider: FakeProvider;

beforeEach(async () => {
  dirs = makeTempDirs();
  provider = await FakeProvider.start();
  writeFileSync(
    join(dirs.home, "config.json"),
    JSON.stringify({ retry: { maxRetries: 3, baseDelaySeconds: 0.01 } }),
  );
});
afterEach(async () => {
  await provider.close();
  dirs.cleanup();
});

const run = (json: boolean) =>
  runCli(
    ["run", ...(json ? ["--json"] : []), "--model", "openai/mock-1", "--base-url", provider.baseUrl, "hi"],
    {
      home: dirs.home,
      cwd: dirs.workspace,
    },
  );

const PORTAL =
  "<!DOCTYPE html><html><head><title>Hotel WiFi - Sign in</title></head><body><form></form></body></html>";

describe.each([true, false])("--json: %s", (json) => {
  it("a 200 text/html page fails at once, saying the server answered HTML", async () => {
    provider.setFallback({
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: PORTAL,
    });
    const r = await run(json);
    expect(r.code).toBe(1);
    expect(provider.requests).toHaveLength(1);
    const said = r.stdout + r.stderr;
    expect(said).toMatch(
      /the server answered with an HTML page \(\\?"Hotel WiFi - Sign in\\?"\) \(HTTP 200, text\/html\)/,
    );
    expect(said).toContain("check the base URL");
    expect(said).not.toMatch(/incomplete|retry/i);
    if (json) {
      const end = jsonEvents(r.stdout).find((e) => e.type === "turn_end");
      expect(end).toMatchObject({
        stop_reason: "failed",
        error: { class: "unexpected_response", status: 200 },
      });
    }
  });

  it("a stream that is only data: [DONE] is an empty answer, and says so", async () => {
    provider.enqueue({ headers: { "content-type": "text/event-stream" }, frames: ["data: [DONE]\n\n"] });
    const r = await run(json);
    expect(r.code, r.stderr).toBe(0);
    expect(provider.requests).toHaveLength(1);
    if (json) {
      const events = jsonEvents(r.stdout);
      expect(events).toContainEqual({
        type: "notice",
        text: "the model's answer was empty (no text and no tool calls)",
      });
      expect(events.find((e) => e.type === "turn_end")).toMatchObject({ stop_reason: "completed" });
    } else {
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("notice: the model's answer was empty (no text and no tool calls)");
    }
  });
});
