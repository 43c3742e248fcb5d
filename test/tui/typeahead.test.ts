// Keys typed while the UI starts (R-UI-14): the terminal is in raw mode (no echo) before the UI
// is drawn, so they are not echoed above it; they land in the composer once it is there. A tool
// set that takes two seconds to fail keeps the start-up open long enough to type into.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { VTerm } from "../support/vterm.js";
import { useTui } from "./support.js";

const t = useTui();

function echoOff(pts: string): boolean {
  const run = spawnSync("stty", ["-F", pts, "-a"], { encoding: "utf8" });
  return /(^|\s)-echo(\s|$)/.test(run.stdout);
}

/**
 * The UI started with one MCP server that takes `seconds` to start, returned once tern has
 * switched the terminal's echo off (it is opening the session and holds typed keys).
 */
async function startWithSlowServer(seconds: number): Promise<VTerm> {
  writeFileSync(
    join(t.dirs.home, "config.json"),
    JSON.stringify({
      toolSets: [{ name: "slow", command: "sleep", args: [String(seconds)], timeoutSeconds: 30 }],
    }),
  );
  const vt = new VTerm({
    home: t.dirs.home,
    cwd: t.dirs.workspace,
    args: ["--model", "local/mock-1", "--base-url", t.provider.baseUrl],
  });
  const pts = (vt.pty as unknown as { ptsName: string }).ptsName;
  try {
    await vi.waitFor(() => expect(echoOff(pts)).toBe(true), { timeout: 15_000, interval: 20 });
  } catch (err) {
    await vt.close();
    throw err;
  }
  return vt;
}

describe("tern start-up", () => {
  it("holds keys typed before the UI is ready: no echo above it, they land in the composer", async () => {
    const vt = await startWithSlowServer(2);
    try {
      // Echo went off while the session was still opening: nothing of the UI is drawn yet.
      expect(vt.text()).not.toMatch(/context \d+%/);
      await vt.type("typed early");
      await vt.waitFor(/context \d+% · \d+ tokens/, 15_000);
      await vt.waitForScreen(/│ › typed early *│/);
      expect(vt.lines().filter((l) => l.includes("typed early"))).toHaveLength(1);
    } finally {
      await vt.close();
    }
  });

  it("Ctrl+C while the UI starts still leaves, and gives the terminal back", async () => {
    const vt = await startWithSlowServer(5);
    try {
      await vt.write("\x03");
      expect(await vt.exited).toBe(130);
      expect(vt.raw).not.toMatch(/context \d+%/);
      // Input modes, if they were switched on yet, are off again.
      expect(vt.raw.lastIndexOf("\x1b[?2004l")).toBeGreaterThanOrEqual(vt.raw.lastIndexOf("\x1b[?2004h"));
    } finally {
      await vt.close();
    }
  });
});
