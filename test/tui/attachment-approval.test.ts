// Attachments in the interactive UI (§10 attachments): an `@file` whose real path leads outside the
// workspace asks, the prompt naming the real target; declined, nothing of it is sent and a notice
// says so; approved, it is attached to that prompt.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { approve, useTui } from "./support.js";

const t = useTui();

function plant(): string {
  const secret = join(t.dirs.root, "outside", "id_rsa");
  mkdirSync(join(t.dirs.root, "outside"));
  writeFileSync(secret, "KEY-MARKER-77\n");
  mkdirSync(join(t.dirs.workspace, "docs"));
  symlinkSync(secret, join(t.dirs.workspace, "docs", "setup.md"));
  return secret;
}

describe("an @file leading outside the workspace asks in the UI", () => {
  it("names the real target; declined, it is not sent", async () => {
    const secret = plant();
    t.provider.enqueue(openaiText("summarized"));
    const vt = await t.start();
    await vt.type("summarize @docs/setup.md now");
    await vt.waitForGone("↑/↓ choose");
    await vt.press("enter");
    const screen = await vt.waitForScreen("Allow this tool call?");
    expect(screen).toContain(secret);
    await approve(vt, "n");
    await vt.waitFor("summarized");
    expect(JSON.stringify(t.provider.requests[0].body)).not.toContain("KEY-MARKER-77");
  });

  it("approved, it is attached", async () => {
    plant();
    t.provider.enqueue(openaiText("summarized"));
    const vt = await t.start();
    await vt.type("summarize @docs/setup.md now");
    await vt.waitForGone("↑/↓ choose");
    await vt.press("enter");
    await vt.waitForScreen("Allow this tool call?");
    await approve(vt, "y");
    await vt.waitFor("summarized");
    expect(JSON.stringify(t.provider.requests[0].body)).toContain("KEY-MARKER-77");
  });
});
