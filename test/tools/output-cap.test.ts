// The bash output cap: head and tail kept whole lines, the elided middle counted in lines too,
// so the person's view can say how many lines really came.
import { describe, expect, it } from "vitest";
import { CappedOutput } from "../../src/tools/builtin/output-cap.js";

describe("CappedOutput", () => {
  it("cuts a 20,000-line output at line breaks and counts the lines it elided", () => {
    const cap = new CappedOutput(29_000);
    const all = Array.from({ length: 20_000 }, (_, i) => `line ${i + 1} of the output`);
    // In uneven chunks, as a pipe delivers them.
    const text = `${all.join("\n")}\n`;
    for (let at = 0; at < text.length; at += 4093) cap.push(text.slice(at, at + 4093));
    const out = cap.text();
    const m = /\n… \[(\d+) characters elided; [^\]]*; the elided part is (\d+) lines\] …\n/.exec(out)!;
    expect(m).not.toBeNull();
    const head = out.slice(0, m.index).split("\n");
    const tail = out
      .slice(m.index + m[0].length)
      .replace(/\n$/, "")
      .split("\n");
    // Whole lines on both sides of the cut.
    for (const line of [head.at(-1), tail[0]]) expect(line).toMatch(/^line \d+ of the output$/);
    expect(head.length + Number(m[2]) + tail.length).toBe(20_000);
    expect(Number(m[1]) + out.length - m[0].length).toBe(text.length);
  });
});
