// One entrance for a prompt (the door's one way in): `send({type: "prompt"})` while the session is busy is a
// follow-up (R-TURN-7), so no front end switches on busy; a prompt may name the model of its turn
// (a custom command's `model:`, R-WF-2), and the session's own model is back for the next turn.
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { resolveModel } from "../../src/config/resolve.js";
import { openaiStream, openaiText } from "../support/openai-script.js";
import { firstDelta, followUpChanges, useHarness } from "./harness.js";

const h = useHarness();
const text = (t: string) => [{ type: "text" as const, text: t }];
const changes = followUpChanges;

describe("a prompt's one entrance", () => {
  it("a prompt sent while a turn runs joins the follow-up queue and runs after the turn", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiStream().text("one ").text("two").delay(100).build(), openaiText("second turn"));
    const first = t.prompt("first");
    await firstDelta(t);
    const second = t.session.send({ type: "prompt", content: text("then this"), text: "[then]" });
    expect(t.session.followUps().queued.map((q) => q.text)).toEqual(["[then]"]);
    expect((await first).turn).toBe(1);
    expect(await second).toMatchObject({ turn: 2, stopReason: "completed", finalText: "second turn" });
    expect(changes(t.events)).toEqual(["queued:[then]", "started:[then]"]);
  });

  it("a queued prompt dropped before it ran resolves cancelled", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiStream().text("working").stallAfter(2).build());
    const first = t.prompt("long task");
    await firstDelta(t);
    const second = t.session.send({ type: "prompt", content: text("never") });
    t.session.cancel({ queue: "drop" });
    expect((await first).stopReason).toBe("cancelled");
    expect(await second).toMatchObject({ turn: 1, stopReason: "cancelled", finalText: "" });
    expect(h.provider.requests).toHaveLength(1);
  });

  it("a prompt asking for its own turn waits for it instead of joining the queue (R-AUTO-2)", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiStream().text("one").delay(100).build(), openaiText("own"));
    const first = t.prompt("first");
    await firstDelta(t);
    const second = t.session.send({ type: "prompt", content: text("alone"), ownTurn: true });
    expect(t.session.followUps().queued).toEqual([]);
    await first;
    expect(await second).toMatchObject({ turn: 2, finalText: "own" });
    expect(changes(t.events)).toEqual([]);
  });

  it("a prompt naming a model runs its turn on it; the next turn runs on the session's model", async () => {
    const t = await h.start();
    const config = { ...defaultConfig(), model: "local/mock-small" };
    const { model } = resolveModel(config, {}, { baseUrl: h.provider.baseUrl });
    h.provider.enqueue(openaiText("small"), openaiText("own"));
    await t.session.send({ type: "prompt", content: text("quick"), model });
    expect(t.session.status().model.id).toBe("local/mock-1");
    await t.prompt("next");
    expect(h.provider.requests.map((r) => (r.body as { model: string }).model)).toEqual([
      "mock-small",
      "mock-1",
    ]);
  });
});
