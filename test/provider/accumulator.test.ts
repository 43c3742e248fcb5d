import { describe, expect, it } from "vitest";
import { ToolCallAccumulator } from "../../src/provider/accumulator.js";

describe("ToolCallAccumulator (R-PROV-2)", () => {
  it("keys slots by index and concatenates argument fragments without parsing", () => {
    const acc = new ToolCallAccumulator();
    acc.apply({ index: 0, id: "a", name: "glob", arguments: "" });
    acc.apply({ index: 1, id: "b", name: "grep", arguments: "{bad" });
    acc.apply({ index: 0, arguments: '{"p":' });
    acc.apply({ index: 0, arguments: "1}" });
    expect(acc.calls()).toEqual([
      { id: "a", name: "glob", arguments: '{"p":1}' },
      { id: "b", name: "grep", arguments: "{bad" },
    ]);
  });

  it("appends an index-less delta to the last slot, and opens a new slot for a new id", () => {
    const acc = new ToolCallAccumulator();
    acc.apply({ id: "a", name: "x", arguments: '{"a"' });
    acc.apply({ arguments: ":1}" });
    acc.apply({ id: "b", name: "y", arguments: "{}" });
    expect(acc.calls().map((c) => [c.id, c.arguments])).toEqual([
      ["a", '{"a":1}'],
      ["b", "{}"],
    ]);
  });

  it("opens a new slot when a server reuses one index for calls with different ids", () => {
    const acc = new ToolCallAccumulator();
    acc.apply({ index: 0, id: "a", name: "x", arguments: "{}" });
    acc.apply({ index: 0, id: "b", name: "y", arguments: "{}" });
    expect(acc.calls().map((c) => c.id)).toEqual(["a", "b"]);
  });

  it("holds argument text until id and name are known, then starts once", () => {
    const acc = new ToolCallAccumulator();
    expect(acc.apply({ index: 0, name: "bash", arguments: '{"c"' })).toEqual([]);
    expect(acc.apply({ index: 0, id: "late", arguments: ':"ls"' })).toEqual([
      { type: "tool_call_start", index: 0, id: "late", name: "bash" },
      { type: "tool_call_delta", index: 0, argumentsDelta: '{"c":"ls"' },
    ]);
    expect(acc.apply({ index: 0, arguments: "}" })).toEqual([
      { type: "tool_call_delta", index: 0, argumentsDelta: "}" },
    ]);
  });

  it("never lets an empty name overwrite a stored one", () => {
    const acc = new ToolCallAccumulator();
    acc.apply({ index: 0, id: "a", name: "write_file" });
    acc.apply({ index: 0, name: "", arguments: "{}" });
    expect(acc.calls()[0].name).toBe("write_file");
  });

  it("numbers calls by position even when wire indexes start at 1", () => {
    const acc = new ToolCallAccumulator();
    const events = [
      ...acc.apply({ index: 1, id: "a", name: "x" }),
      ...acc.apply({ index: 2, id: "b", name: "y" }),
    ];
    expect(events.map((e) => e.index)).toEqual([0, 1]);
  });

  it("synthesizes an id on flush for a call that never got one", () => {
    const acc = new ToolCallAccumulator();
    acc.apply({ index: 0, name: "x", arguments: '{"k":1}' });
    expect(acc.flush()).toEqual([
      { type: "tool_call_start", index: 0, id: "call_tern_0", name: "x" },
      { type: "tool_call_delta", index: 0, argumentsDelta: '{"k":1}' },
    ]);
    expect(acc.calls()[0].id).toBe("call_tern_0");
    expect(acc.flush()).toEqual([]);
  });

  it("keeps Gemini extra_content, also from a metadata-only delta", () => {
    const acc = new ToolCallAccumulator();
    acc.apply({ id: "g1", name: "read", arguments: "{}" });
    acc.apply({ extra: { extra_content: { google: { thought_signature: "sig" } } } });
    expect(acc.calls()[0].extra).toEqual({ extra_content: { google: { thought_signature: "sig" } } });
  });

  it("drops a slot that only ever held metadata", () => {
    const acc = new ToolCallAccumulator();
    acc.apply({ index: 0, extra: { x: 1 } });
    expect(acc.calls()).toEqual([]);
    expect(acc.flush()).toEqual([]);
  });

  it("routes deltas by id and by wire index among hundreds of calls in one answer", () => {
    const acc = new ToolCallAccumulator();
    const n = 300;
    for (let i = 0; i < n; i++) acc.apply({ index: i, id: `c${i}`, name: "read_file", arguments: "{" });
    // Continuations in reverse order, half by wire index and half by id only.
    for (let i = n - 1; i >= 0; i--)
      acc.apply(i % 2 ? { index: i, arguments: `"n":${i}` } : { id: `c${i}`, arguments: `"n":${i}` });
    for (let i = 0; i < n; i++) acc.apply({ index: i, arguments: "}" });
    const calls = acc.calls();
    expect(calls).toHaveLength(n);
    expect(calls.every((c, i) => c.id === `c${i}` && c.arguments === `{"n":${i}}`)).toBe(true);
  });

  it("sends a delta that names an id held by two calls to the earlier one", () => {
    const acc = new ToolCallAccumulator();
    acc.apply({ index: 0, name: "x" });
    acc.apply({ index: 1, id: "a", name: "y", arguments: "{}" });
    // A named start for id "a" at another index: the id is reused, so slot 0 takes it too.
    acc.apply({ index: 0, id: "a", name: "x", arguments: "[" });
    acc.apply({ id: "a", arguments: "]" });
    expect(acc.calls().map((c) => [c.id, c.name, c.arguments])).toEqual([
      ["a", "x", "[]"],
      ["a", "y", "{}"],
    ]);
  });
});
