// The door's requests to a person keep their written contracts (engine/requests.ts): a throwing
// `approve` denies the whole batch and the turn goes on; a throwing `onLimit` is a no; a cancel
// while an approval is pending waits for the answer and runs nothing after it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const h = useHarness();

describe("requests to a person", () => {
  it("approve that throws denies the batch; the turn goes on with the denials", async () => {
    const t = await h.start({
      hooks: {
        approve: async () => {
          throw new Error("front end broke");
        },
      },
    });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "touch made" } }]),
      openaiText("it was denied"),
    );
    expect((await t.prompt("make a file")).stopReason).toBe("completed");
    expect(t.events.find((e) => e.type === "tool_result")).toMatchObject({ id: "c1", outcome: "denied" });
    expect(existsSync(join(h.dirs.workspace, "made"))).toBe(false);
  });

  it("onLimit that throws is a no: the turn stops at the limit", async () => {
    const t = await h.start({
      config: (c) => {
        c.executionBudget.maximumModelCalls = 1;
      },
      hooks: {
        onLimit: async () => {
          throw new Error("no prompt here");
        },
      },
    });
    h.provider.enqueue(
      openaiToolCalls([{ id: "g1", name: "glob", args: { pattern: "*" } }]),
      openaiText("never"),
    );
    expect((await t.prompt("go")).stopReason).toBe("model_call_limit_reached");
    expect(h.provider.requests).toHaveLength(1);
  });

  it("a cancel while an approval is pending waits for it, then runs nothing", async () => {
    let answer!: () => void;
    let askedResolve!: () => void;
    const wasAsked = new Promise<void>((r) => {
      askedResolve = r;
    });
    const t = await h.start({
      hooks: {
        approve: (calls) => {
          askedResolve();
          return new Promise((resolve) => {
            answer = () => resolve(new Map(calls.map((c) => [c.id, "approved" as const])));
          });
        },
      },
    });
    h.provider.enqueue(openaiToolCalls([{ id: "c1", name: "bash", args: { command: "touch late" } }]));
    const turn = t.prompt("make it");
    await wasAsked;
    t.session.cancel();
    answer();
    expect((await turn).stopReason).toBe("cancelled");
    expect(existsSync(join(h.dirs.workspace, "late"))).toBe(false);
  });
});
