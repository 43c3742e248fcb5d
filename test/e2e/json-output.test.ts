// What `tern run --json` and `tern export --format json` print (§10, R-CLI-2): a huge tool
// argument once, not twice; C0 and C1 control characters escaped, never raw.
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, useE2E } from "./tools-support.js";

// Raw C1 (CSI U+009B, OSC U+009D, ST U+009C), DEL and C0 (BEL, ESC) as a model or tool might send them.
const CONTROLS = "a\u009b31mred\u009d0;title\u009c\u007f\u0007\u001b[2Jz";
const RAW = /[\u0000-\u001f\u007f-\u009f]/;

const e = useE2E();

describe("--json output", () => {
  it("a huge tool argument appears once (2 MB here; the path is the same for 50 MB)", async () => {
    const marker = "Q".repeat(2 * 1024 * 1024);
    e.provider.enqueue(
      openaiToolCalls([{ id: "w0", name: "write_file", args: { path: "big.txt", content: marker } }]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes"], "do it", { timeoutMs: 30_000 });
    expect(run.stderr).not.toMatch(/internal/);
    const holders = run.stdout.split("\n").filter((line) => line.includes("QQQQQQQQQQQQQQQQ"));
    expect(holders).toHaveLength(1);
    expect(JSON.parse(holders[0]).type).toBe("assistant_message");
    const call = run.events.find((ev) => ev.type === "tool_call");
    expect(call).toMatchObject({ id: "w0", arguments: "", arguments_omitted: { in: "assistant_message" } });
    expect(call.arguments_omitted.chars).toBeGreaterThan(marker.length);
  }, 40_000);
});

describe("JSON output escapes C0 and C1 control characters (§10)", () => {
  it("tern run --json and tern export --format json print none raw", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "b0", name: "bash", args: { command: `printf '${CONTROLS}'` } }]),
      openaiText(`done ${CONTROLS}`),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split("\n").filter((l) => l !== "");
    for (const line of lines) expect(line).not.toMatch(RAW);
    expect(
      run.events.find((ev) => ev.type === "assistant_message" && ev.text.startsWith("done")).text,
    ).toContain("\u009b31mred");
    const session = run.events.find((ev) => ev.type === "session").id;
    const exported = await e.run(["export", session, "--format", "json"]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.replace(/\n/g, "")).not.toMatch(RAW);
    expect(JSON.stringify(JSON.parse(exported.stdout))).toContain("\u009b31mred");
  });
});
