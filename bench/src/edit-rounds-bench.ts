// The model round trips an edit costs (R-EDIT-2, R-EDIT-4): a scripted model makes N edits in one
// `tern run --yes`, each the way a model does it — read the file, then edit_file with old_string
// copied from the read (CRLF files: `\n` text over `\r\n` lines) or, for the shifted snippets, as
// it remembers the code (indented 4 where the file has 8). When an edit is refused it reads the
// file again and replaces the lines by number with edit_lineno, as models then do. The row is
// the number of requests the run sends; the files must end up right either way (else it throws).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openaiText, openaiToolCalls } from "../../test/support/openai-script.js";
import type { RecordedRequest } from "../../test/support/fake-provider.js";
import { expectExit, type Paths, type Plan, repeat, scene, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";

const EDITS = 10;

interface EditCase {
  file: string;
  content: string;
  /** What the model sends as old_string / new_string. */
  old: string;
  neu: string;
  /** Its fallback: lines start..end (1-based) become `lines`. */
  start: number;
  end: number;
  lines: string;
  expected: string;
}

function crlfCase(i: number): EditCase {
  const lines = [
    `// file ${i}`,
    "function f() {",
    `  const a = ${i};`,
    `  const b = a + ${i};`,
    "  return b;",
    "}",
  ];
  const after = [...lines.slice(0, 2), `  const a = ${i + 1};`, `  const b = a * ${i};`, ...lines.slice(4)];
  return {
    file: `crlf${i}.ts`,
    content: `${lines.join("\r\n")}\r\n`,
    old: `${lines[2]}\n${lines[3]}`,
    neu: `${after[2]}\n${after[3]}`,
    start: 3,
    end: 4,
    lines: `${after[2]}\n${after[3]}`,
    expected: `${after.join("\r\n")}\r\n`,
  };
}

function shiftedCase(i: number): EditCase {
  const file = [
    "class Store:",
    "    def load(self):",
    `        value = self.read(${i})`,
    "        if value is None:",
    "            return 0",
    "        return value",
  ];
  const after = [
    ...file.slice(0, 3),
    "        if value is None or value < 0:",
    "            return -1",
    file[5],
  ];
  return {
    file: `shifted${i}.py`,
    content: `${file.join("\n")}\n`,
    // As the model remembers the method: one level less deep.
    old: "    if value is None:\n        return 0",
    neu: "    if value is None or value < 0:\n        return -1",
    start: 4,
    end: 5,
    lines: `${after[3]}\n${after[4]}`,
    expected: `${after.join("\n")}\n`,
  };
}

/** The scripted model: per file read, edit_file, and on a refusal read again and edit_lineno. */
function scriptedModel(cases: EditCase[]) {
  let n = 0;
  let index = 0;
  let step: "read" | "edit" | "check" | "reread" | "lineno" = "read";
  return (req: RecordedRequest) => {
    const tools = (req.body.messages as { role: string; content: unknown }[]).filter(
      (m) => m.role === "tool",
    );
    const last = String(tools[tools.length - 1]?.content ?? "");
    if (step === "check") {
      if (last.startsWith("Edited ")) {
        index++;
        step = "read";
      } else step = "reread";
    }
    if (index >= cases.length) return openaiText("Done.");
    const c = cases[index];
    const id = `call_${++n}`;
    switch (step) {
      case "read":
        step = "edit";
        return openaiToolCalls([{ id, name: "read_file", args: { path: c.file } }]);
      case "edit":
        step = "check";
        return openaiToolCalls([
          { id, name: "edit_file", args: { path: c.file, old_string: c.old, new_string: c.neu } },
        ]);
      case "reread":
        step = "lineno";
        return openaiToolCalls([{ id, name: "read_file", args: { path: c.file } }]);
      default:
        index++;
        step = "read";
        return openaiToolCalls([
          {
            id,
            name: "edit_lineno",
            args: { path: c.file, start_line: c.start, end_line: c.end, new_text: c.lines },
          },
        ]);
    }
  };
}

async function requestsFor(p: Paths, cases: EditCase[]): Promise<number> {
  const s = await scene();
  try {
    for (const c of cases) writeFileSync(join(s.dirs.workspace, c.file), c.content);
    s.provider.setResponder(scriptedModel(cases));
    const limit = String(cases.length * 5 + 5);
    const r = await spawnNode(
      p,
      [p.bin, "run", "--yes", ...s.modelArgs, "--max-model-calls", limit, "--max-tool-calls", limit, "edit"],
      { cwd: s.dirs.workspace, env: s.env },
    );
    expectExit(r, "tern run (scripted edits)");
    for (const c of cases) {
      const got = readFileSync(join(s.dirs.workspace, c.file), "utf8");
      if (got !== c.expected) throw new Error(`${c.file} ended as ${JSON.stringify(got)}`);
    }
    return s.provider.requests.length;
  } finally {
    await s.close();
  }
}

export async function editRoundsBench(p: Paths, plan: Plan): Promise<Row[]> {
  const once = { warmup: 0, runs: Math.min(plan.runs, 2) };
  const rows: Row[] = [];
  for (const [what, make] of [
    ["CRLF files", crlfCase],
    ["shifted-indent snippets", shiftedCase],
  ] as const) {
    const cases = Array.from({ length: EDITS }, (_, i) => make(i));
    const counts = await repeat(once, () => requestsFor(p, cases));
    rows.push({
      name: "edit rounds",
      metric: `requests for ${EDITS} edits on ${what} (read + edit each = ${2 * EDITS + 1})`,
      unit: "count",
      stats: stats(counts),
      target: { kind: "max", value: 2 * EDITS + 1, text: `<= ${2 * EDITS + 1}` },
    });
  }
  return rows;
}
