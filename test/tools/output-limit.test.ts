// R-TOOL-6: the gate every tool result passes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { limitResult } from "../../src/tools/output-limit.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const limits = () => ({ maxChars: 1000, maxImageBytes: 1024, fullOutputDir: join(dirs.root, "out") });

describe("limitResult", () => {
  it("keeps results under the limit as they are", () => {
    const r = { outcome: "ok" as const, content: [{ type: "text" as const, text: "short" }] };
    expect(limitResult(r, limits(), "c1", "bash")).toEqual(r);
  });

  it("keeps head and tail, counts the middle, and saves the whole text for tools without offsets", () => {
    const text = `HEAD${"m".repeat(5000)}TAIL`;
    const r = limitResult({ outcome: "error", content: [{ type: "text", text }] }, limits(), "c/2", "mcp__x");
    const out = r.content[0].type === "text" ? r.content[0].text : "";
    expect(r.outcome).toBe("error");
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out.startsWith("HEAD")).toBe(true);
    expect(out.endsWith("TAIL")).toBe(true);
    const elided = Number(/\[(\d+) characters elided/.exec(out)![1]);
    const kept = out.length - out.slice(out.indexOf("\n…"), out.lastIndexOf("…\n") + 2).length;
    expect(elided + kept).toBe(text.length);
    const file = /the full output is in (\S+);/.exec(out)![1];
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("points read_file at offset/limit instead of saving", () => {
    const r = limitResult(
      { outcome: "ok", content: [{ type: "text", text: "x".repeat(3000) }] },
      limits(),
      "r",
      "read_file",
    );
    expect(r.content[0].type === "text" && r.content[0].text).toMatch(
      /read the rest with read_file offset\/limit/,
    );
  });

  it("holds images to the per-image limit and never sends SVG as an image", () => {
    const big = Buffer.alloc(4096).toString("base64");
    const small = Buffer.alloc(100).toString("base64");
    const r = limitResult(
      {
        outcome: "ok",
        content: [
          { type: "image", mediaType: "image/png", data: big },
          { type: "image", mediaType: "image/svg+xml", data: small },
          { type: "image", mediaType: "image/png", data: small },
        ],
      },
      limits(),
      "i",
      "mcp__x",
    );
    expect(r.content[0]).toMatchObject({
      type: "text",
      text: expect.stringMatching(/over the provider's .* limit per image/),
    });
    expect(r.content[1]).toMatchObject({
      type: "text",
      text: expect.stringMatching(/image\/svg\+xml not sent/),
    });
    expect(r.content[2]).toMatchObject({ type: "image", mediaType: "image/png" });
  });
});
