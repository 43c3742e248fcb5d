import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { builtinTools } from "../../src/tools/builtin/all.js";
import { lazySchema } from "../../src/tools/lazy-schema.js";
import { parseArguments } from "../../src/tools/registry.js";

describe("lazySchema", () => {
  it("builds the schema on the first call only, and the same one every time", () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds++;
      return z.object({ path: z.string() });
    });
    expect(builds).toBe(0);
    const first = schema();
    expect(schema()).toBe(first);
    expect(builds).toBe(1);
  });

  it("every built-in tool's schema still parses its arguments and names a bad one", () => {
    for (const tool of builtinTools) {
      expect(tool.schema).toBe(tool.schema);
      const bad = parseArguments(tool, '{"no_such_argument_at_all": 1}');
      if (!bad.ok) expect(JSON.stringify(bad.result.content)).toContain(tool.name);
    }
    const bash = builtinTools.find((t) => t.name === "bash")!;
    expect(parseArguments(bash, '{"command":"echo hi"}')).toEqual({ ok: true, args: { command: "echo hi" } });
    expect(parseArguments(bash, '{"command":""}').ok).toBe(false);
  });
});
