// The follow-up queue lives in the engine (R-TURN-7, R-UI-1, R-UI-2, R-UI-5): a follow-up that no
// tool batch took starts the next turn; an interrupt holds the queue until it is released; the
// newest can be taken back; a drop empties it. Each change is a `follow_up` event.
import { describe, expect, it } from "vitest";
import { openaiStream, openaiText } from "../support/openai-script.js";
import { firstDelta, followUpChanges, useHarness } from "./harness.js";

const h = useHarness();
const text = (t: string) => [{ type: "text" as const, text: t }];
const changes = followUpChanges;
const lastUser = (body: any) => body.messages.filter((m: any) => m.role === "user").at(-1).content;

describe("the engine's follow-up queue", () => {
  it("what no tool batch took starts the next turn when the running one ends", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiStream().text("one ").text("two").delay(100).build(), openaiText("second turn"));
    const first = t.prompt("first");
    await firstDelta(t);
    const ticket = t.session.followUp(text("then this"));
    expect(t.session.followUps().queued).toEqual([{ id: ticket.id, text: "then this" }]);
    expect((await first).turn).toBe(1);
    expect(await ticket.outcome).toMatchObject({ turn: 2, stopReason: "completed" });
    await t.session.idle();
    expect(lastUser(h.provider.requests[1].body)).toBe("then this");
    expect(changes(t.events)).toEqual(["queued:then this", "started:then this"]);
  });

  it("an idle session starts a turn for a follow-up at once", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiText("hello back"));
    const outcome = await t.session.followUp(text("hello")).outcome;
    expect(outcome).toMatchObject({ turn: 1, stopReason: "completed" });
  });

  it("cancel holds the queue; nothing moves until sendFollowUpsNow", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiStream().text("working").stallAfter(2).build(), openaiText("held one ran"));
    const first = t.prompt("long task");
    await firstDelta(t);
    const ticket = t.session.followUp(text("held one"));
    t.session.cancel();
    expect((await first).stopReason).toBe("cancelled");
    await t.session.idle();
    expect(h.provider.requests).toHaveLength(1);
    expect(t.session.followUps()).toEqual({ queued: [{ id: ticket.id, text: "held one" }], held: true });
    t.session.sendFollowUpsNow();
    expect(await ticket.outcome).toMatchObject({ turn: 2, stopReason: "completed" });
    expect(changes(t.events)).toEqual(["queued:held one", "held:", "released:", "started:held one"]);
  });

  it("sendFollowUpsNow interrupts the running turn so the queue goes now (R-UI-2)", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiStream().text("working").stallAfter(2).build(), openaiText("now"));
    const first = t.prompt("long task");
    await firstDelta(t);
    const ticket = t.session.followUp(text("go now"));
    t.session.sendFollowUpsNow();
    expect((await first).stopReason).toBe("cancelled");
    expect(await ticket.outcome).toMatchObject({ turn: 2, stopReason: "completed" });
  });

  it("the newest is taken back, a drop empties the rest, and their tickets settle undefined", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiStream().text("working").stallAfter(2).build());
    const first = t.prompt("long task");
    await firstDelta(t);
    const a = t.session.followUp(text("a"));
    const b = t.session.followUp(text("b"), { text: "[pasted 3 lines]" });
    expect(t.session.takeBackFollowUp()).toEqual({ id: b.id, text: "[pasted 3 lines]" });
    expect(await b.outcome).toBeUndefined();
    t.session.cancel({ queue: "drop" });
    expect(await a.outcome).toBeUndefined();
    expect((await first).stopReason).toBe("cancelled");
    await t.session.idle();
    expect(h.provider.requests).toHaveLength(1);
    expect(changes(t.events)).toEqual([
      "queued:a",
      "queued:[pasted 3 lines]",
      "taken_back:[pasted 3 lines]",
      "dropped:a",
    ]);
  });

  it("cancel with queue `keep` lets the queue move on after the interrupted turn", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiStream().text("working").stallAfter(2).build(), openaiText("kept"));
    const first = t.prompt("long task");
    await firstDelta(t);
    const ticket = t.session.followUp(text("kept one"));
    t.session.cancel({ queue: "keep" });
    expect((await first).stopReason).toBe("cancelled");
    expect(await ticket.outcome).toMatchObject({ turn: 2 });
  });
});
