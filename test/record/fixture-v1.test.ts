// The v1 fixture is a frozen record: a later tern must still load it to these exact messages (R-REC-7).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecordFold } from "../../src/record/fold.js";
import { loadRecord } from "../../src/record/load.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/record-v1/record.jsonl");
const text = (t: string) => [{ type: "text", text: t }];

describe("record format v1 fixture", () => {
  it("loads without warnings and folds to the expected model context", () => {
    const { lines, warnings } = loadRecord(fixture);
    expect(warnings).toEqual([]);
    expect(lines).toHaveLength(20);
    const f = RecordFold.from(lines);
    expect(f.messages).toEqual([
      { role: "user", content: text("Add a --verbose flag to src/cli.ts") },
      {
        role: "assistant",
        text: "Let me read the CLI first.",
        reasoning: "The user wants a flag; read the file.",
        toolCalls: [{ id: "toolu_01", name: "read_file", arguments: '{"path":"src/cli.ts"}' }],
      },
      {
        role: "tool",
        toolCallId: "toolu_01",
        toolName: "read_file",
        content: text("[read_file result shed by compaction (turn 1, round 1); re-run the tool to see it]"),
        isError: false,
      },
      {
        role: "assistant",
        text: "",
        reasoning: "",
        toolCalls: [
          {
            id: "toolu_02",
            name: "edit_file",
            arguments:
              '{"path":"src/cli.ts","old_string":"main(args);","new_string":"main(args, args.includes(\\"--verbose\\"));"}',
          },
          { id: "toolu_03", name: "bash", arguments: '{"command":"npm test"}' },
        ],
      },
      {
        role: "tool",
        toolCallId: "toolu_02",
        toolName: "edit_file",
        content: text("edited src/cli.ts"),
        isError: false,
      },
      {
        role: "tool",
        toolCallId: "toolu_03",
        toolName: "bash",
        content: text("exit status 1\nFAIL test/cli.test.ts"),
        isError: true,
      },
      {
        role: "assistant",
        text: "Added `--verbose`; one test fails because main() takes one argument.",
        reasoning: "",
        toolCalls: [],
      },
      { role: "user", content: text("Fix the test too.") },
      {
        role: "assistant",
        text: "",
        reasoning: "",
        toolCalls: [{ id: "toolu_04", name: "bash", arguments: '{"command":"rm -rf node_modules"}' }],
      },
      {
        role: "tool",
        toolCallId: "toolu_04",
        toolName: "bash",
        content: text("denied by user"),
        isError: true,
      },
      { role: "user", content: text("Your todo list has open items; review it.") },
      { role: "assistant", text: "Understood, I will not delete anything.", reasoning: "", toolCalls: [] },
    ]);
    expect(f.phase).toBe("ReadyForUser");
    expect(f.lastTurn).toBe(2);
    expect(f.openTurn).toBeUndefined();
    expect(f.model).toBe("anthropic/claude-sonnet-4-5");
    expect(f.context?.tools.map((t) => t.name)).toEqual(["read_file", "bash", "edit_file"]);
  });

  describe("a newer format", () => {
    let dirs: TempDirs;
    beforeEach(() => {
      dirs = makeTempDirs();
    });
    afterEach(() => dirs.cleanup());

    it("a v: 99 line is refused with a clear error", () => {
      const file = join(dirs.root, "record.jsonl");
      const lines = readFileSync(fixture, "utf8").split("\n");
      lines[4] = lines[4].replace('"v":1', '"v":99');
      writeFileSync(file, lines.join("\n"));
      expect(() => loadRecord(file)).toThrow(
        `${file}: line 5: written by a newer tern (record format v99); this tern reads up to v1`,
      );
    });
  });
});
