// A reader of `tern run`'s stdout that goes away mid-turn (`tern run --json … | head -3`): the
// turn is cancelled as on a signal (R-REC-4, R-BASH-1): no tool process outlives tern, turn_end
// is written, and the exit code says SIGPIPE (141), never the 0 of a completed turn (R-CLI-2).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { killLeftovers, recordText, runArgs, sessionDirs, startTern } from "./process-support.js";
import { useE2E } from "./tools-support.js";
import { running } from "../support/process-state.js";

const e = useE2E();
afterEach(killLeftovers);

it("cancels the turn, kills the running command and exits 141 when stdout's reader leaves", async () => {
  e.provider.enqueue(
    openaiToolCalls([
      { id: "quick", name: "bash", args: { command: "sleep 0.3; echo quick" } },
      { id: "slow", name: "bash", args: { command: "echo $$ > slow.pid; sleep 60; echo late > late.txt" } },
    ]),
  );
  e.provider.enqueue(openaiText("never asked for"));
  const t = startTern(e, runArgs(e, ["--yes"]));
  await t.waitFor(
    () => t.events().some((ev) => ev.type === "tool_call" && ev.id === "slow"),
    "the second tool call",
  );
  await t.waitFor(() => {
    try {
      return readFileSync(join(e.dirs.workspace, "slow.pid"), "utf8").trim() !== "";
    } catch {
      return false;
    }
  }, "the slow command to start");
  const slowPid = Number(readFileSync(join(e.dirs.workspace, "slow.pid"), "utf8").trim());
  // The reader goes away; tern's next event (the quick call's result) meets a closed pipe.
  t.child.stdout!.destroy();
  const { code } = await t.exit;
  expect(code).toBe(141);
  expect(running(slowPid)).toBe(false);
  const record = recordText(sessionDirs(e)[0]);
  const end = record
    .split("\n")
    .filter((l) => l.includes('"type":"turn_end"'))
    .map((l) => JSON.parse(l));
  expect(end).toHaveLength(1);
  expect(end[0].stopReason).toBe("cancelled");
  // The model was not asked again after the cancel.
  expect(e.provider.requests).toHaveLength(1);
});
