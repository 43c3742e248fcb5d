// Requests stay legal across what reshapes the model context: every tool call answered in its
// place, no orphan result (the fake provider refuses an illegal request with the real API's 400
// and the shared afterEach fails the test). The batches here finish out of call order, so their
// results are committed in another order than the context presents them.
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EngineEvent } from "../../src/engine/door/events.js";
import type { Config } from "../../src/config/types.js";
import { anthropicStream } from "../support/anthropic-script.js";
import type { ScriptedResponse } from "../support/fake-provider.js";
import { isSummaryRequest } from "../support/long-turn.js";
import { responsesStream } from "../support/responses-script.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { forkArchive } from "../../src/workspace/session-queries.js";
import { type TestSession, toolMessages, useHarness } from "./harness.js";

const h = useHarness();

/** Resolves once a tool_result event for `id` was published. */
function resultOf(events: EngineEvent[], id: string): Promise<void> {
  return new Promise((resolve) => {
    const poll = () =>
      events.some((e) => e.type === "tool_result" && (e as any).id === id) ? resolve() : setTimeout(poll, 5);
    poll();
  });
}

interface Wire {
  configure(c: Config): void;
  calls(ids: { id: string; command: string }[]): ScriptedResponse;
  text(text: string): ScriptedResponse;
}

const WIRES: Record<string, Wire> = {
  "openai-chat": {
    configure: () => {},
    calls: (ids) => openaiToolCalls(ids.map(({ id, command }) => ({ id, name: "bash", args: { command } }))),
    text: (text) => openaiText(text),
  },
  "anthropic-messages": {
    configure: (c) => {
      c.model = "anth/claude-test";
      c.providers.anth = { api: "anthropic-messages", baseUrl: "http://127.0.0.1:9/v1", headers: {} };
    },
    calls: (ids) => {
      const stream = anthropicStream();
      for (const { id, command } of ids) stream.toolUse({ id, name: "bash", input: { command } });
      return stream.stop("tool_use").build();
    },
    text: (text) => anthropicStream().text(text).build(),
  },
  "openai-responses": {
    configure: (c) => {
      c.model = "resp/gpt-test";
      c.providers.resp = { api: "openai-responses", baseUrl: "http://127.0.0.1:9/v1", headers: {} };
    },
    calls: (ids) => {
      const stream = responsesStream();
      for (const { id, command } of ids) stream.functionCall({ callId: id, name: "bash", args: { command } });
      return stream.build();
    },
    text: (text) => responsesStream().text(text).build(),
  },
};

describe("requests after a batch whose results were committed out of call order", () => {
  it.each(Object.keys(WIRES))(
    "%s: a summary of a turn cut mid-batch takes all of its results along",
    async (api) => {
      const wire = WIRES[api];
      const t = await h.start({ config: wire.configure });
      // `slow` never finishes on its own: cancelled after `fast` committed, its `interrupted`
      // result is committed after fast's, though the context presents it first (call order).
      h.provider.enqueue(
        wire.calls([
          { id: "slow", command: "sleep 60" },
          { id: "fast", command: "echo quick" },
        ]),
      );
      const first = t.prompt("one");
      await resultOf(t.events, "fast");
      t.session.cancel();
      expect((await first).stopReason).toBe("cancelled");

      h.provider.enqueue(wire.text("two"));
      await t.prompt("second");
      h.provider.enqueue(wire.text("THE SUMMARY"));
      await t.session.send({ type: "compact" });

      h.provider.enqueue(wire.text("three"));
      const third = await t.prompt("third");
      expect(third.stopReason).toBe("completed");
      const sent = h.provider.requests.at(-1)!.rawBody;
      expect(sent).toContain("[Summary of turn 1");
      expect(sent).not.toContain("slow");
    },
  );

  it("a summary of the open turn's older rounds takes all of their results along", async () => {
    writeFileSync(join(h.dirs.workspace, "big.txt"), `${"y".repeat(99)}\n`.repeat(40));
    const t = await h.start({
      config: (c: any) => {
        c.autoCompactThreshold = 0.8;
        c.models["local/mock-1"] = { contextWindow: 6000 };
      },
    });
    // Every round's batch finishes out of call order: `late<i>` waits until `early<i>` (a big
    // output) has been committed, so whichever rounds a summary ends on, its last batch is one.
    // Both are bash: neighbouring bash calls run side by side (a read after a bash would wait
    // for it, R-TOOL-3).
    const rounds = 30;
    for (let i = 0; i < rounds; i++)
      h.provider.enqueue(
        openaiToolCalls([
          {
            id: `late${i}`,
            name: "bash",
            args: { command: `while [ ! -f go${i} ]; do sleep 0.02; done; echo late` },
          },
          { id: `early${i}`, name: "bash", args: { command: "cat big.txt" } },
        ]),
      );
    h.provider.setFallback(openaiText("finished"));
    h.provider.setResponder((request) =>
      isSummaryRequest("openai-chat", request.body) ? openaiText("SUMMARY OF ROUNDS") : undefined,
    );
    const unsubscribe = t.session.subscribe((e) => {
      const id = e.type === "tool_result" ? String((e as any).id) : "";
      if (id.startsWith("early")) writeFileSync(join(h.dirs.workspace, `go${id.slice(5)}`), "");
    });
    const out = await t.prompt("go");
    unsubscribe();
    expect(out.stopReason).toBe("completed");
    expect(t.events.some((e) => e.type === "compaction" && (e as any).stage === "summarize")).toBe(true);
    // Every round's two results went out together with their call, summarized or verbatim.
    const last = h.provider.requests.at(-1)!.body;
    const ids = toolMessages(last).map((m) => m.id);
    expect(ids.length).toBeGreaterThan(0);
    const pairs = ids.map((id) => id.replace(/^(late|early)/, ""));
    for (const n of pairs) expect(ids.filter((id) => id.replace(/^(late|early)/, "") === n)).toHaveLength(2);
  }, 60_000);
});

describe("session operations around a batch whose results were committed out of call order", () => {
  /** A turn whose batch is cut: `fast<n>` committed, then `slow<n>` interrupted by a cancel. */
  async function cutTurn(t: TestSession, n: number): Promise<void> {
    h.provider.enqueue(
      openaiToolCalls([
        { id: `slow${n}`, name: "bash", args: { command: "sleep 60" } },
        { id: `fast${n}`, name: "bash", args: { command: "echo quick" } },
      ]),
    );
    const turn = t.prompt(`turn ${n}`);
    await resultOf(t.events, `fast${n}`);
    t.session.cancel();
    expect((await turn).stopReason).toBe("cancelled");
  }
  const sentIds = () => toolMessages(h.provider.requests.at(-1)!.body).map((m) => m.id);

  it("/retry, /rewind, /clear: each next request answers exactly the calls it carries", async () => {
    const t = await h.start();
    await cutTurn(t, 1);
    h.provider.enqueue(openaiText("retried"));
    expect((await t.session.send({ type: "retry" })).stopReason).toBe("completed");
    expect(sentIds()).toEqual(["slow1", "fast1"]);

    await cutTurn(t, 2);
    await t.session.send({ type: "rewind", turn: 1 });
    h.provider.enqueue(openaiText("after rewind"));
    await t.prompt("turn 3");
    expect(sentIds()).toEqual(["slow1", "fast1"]);

    await t.session.send({ type: "clear" });
    h.provider.enqueue(openaiText("after clear"));
    await t.prompt("turn 4");
    expect(sentIds()).toEqual([]);
  });

  it("a side question while the first call still runs and the second has finished", async () => {
    const t = await h.start();
    h.provider.enqueue(
      openaiToolCalls([
        { id: "slow", name: "bash", args: { command: "while [ ! -f go ]; do sleep 0.02; done; echo slow" } },
        { id: "fast", name: "bash", args: { command: "echo quick" } },
      ]),
      openaiText("side answer"),
      openaiText("turn done"),
    );
    const turn = t.prompt("run both");
    await resultOf(t.events, "fast");
    const side = await t.session.askSide("what runs?", {
      history: [],
      signal: new AbortController().signal,
      onEvent: () => {},
    });
    expect(side).toMatchObject({ ok: true, text: "side answer" });
    expect(toolMessages(h.provider.requests[1].body).map((m) => m.id)).toEqual(["fast", "slow"]);
    writeFileSync(join(h.dirs.workspace, "go"), "");
    expect((await turn).stopReason).toBe("completed");
    expect(sentIds()).toEqual(["slow", "fast"]);
  });

  it("a fork at the cut turn and a resume of it send the batch whole", async () => {
    const t = await h.start();
    await cutTurn(t, 1);
    h.provider.enqueue(openaiText("two"));
    await t.prompt("turn 2");
    const forked = forkArchive(h.dirs.home, t.session.id, 1);
    await t.session.close();
    const resumed = await h.start({ resume: { id: forked } });
    h.provider.enqueue(openaiText("in the fork"));
    expect((await resumed.prompt("go on")).stopReason).toBe("completed");
    expect(sentIds()).toEqual(["slow1", "fast1"]);
  });
});
