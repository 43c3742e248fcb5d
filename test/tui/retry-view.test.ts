// R-UI-20 in a real pseudo-terminal: a provider that fails every time shows `Attempt K of N`
// while it waits, one `retrying model request` line per retry, and a final error line that
// says how many attempts over how long and that `/retry` runs the turn again.
import { describe, expect, it } from "vitest";
import { openaiError, openaiText } from "../support/openai-script.js";
import { useTui } from "./support.js";

const t = useTui();
const boom = () => openaiError(500, { error: { message: "upstream exploded", type: "server_error" } });

describe("tern interactive UI when the provider keeps failing", () => {
  it("counts attempts out of the policy's total and says /retry works at the end", async () => {
    t.provider.enqueue(boom(), boom(), boom(), openaiText("worked on retry"));
    const vt = await t.start([], {
      retry: { maxRetries: 2, baseDelaySeconds: 1, maxDelaySeconds: 1, jitter: 0 },
    });
    await vt.type("go");
    await vt.press("enter");
    await vt.waitFor(/Retrying in \ds \(Attempt 2 of 3\)/);
    await vt.waitFor(/Retrying in \ds \(Attempt 3 of 3\)/, 5_000);
    await vt.waitFor(/failed after 3 attempts over \d+ s: server \(HTTP 500\)/, 5_000);
    const text = vt.text();
    // The error is one line (wrapped at the terminal's width).
    expect(text.replace(/\n/g, "")).toMatch(/upstream exploded · \/retry runs the turn again/);
    expect(text.match(/retrying model request: .*upstream exploded/g)).toHaveLength(2);
    await vt.waitForGone("Retrying in");
    // And /retry does run it again.
    await vt.type("/retry");
    await vt.press("enter");
    await vt.waitFor("worked on retry");
  });
});
