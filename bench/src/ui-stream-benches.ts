// Benchmarks of the interactive UI while answers stream (R-UI-22), in node-pty: bytes written
// to the terminal per streamed character below a 2,000-line transcript, and the UI's memory
// after a 500-round session. CPU per streamed token beside pi is in ui-pi-bench.ts.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openaiStream, openaiText, openaiToolCalls } from "../../test/support/openai-script.js";
import type { Plan } from "./cli-benches.js";
import { MB, onRequest, type Paths, procStatusBytes, scene, stats } from "./harness.js";
import type { Row } from "./rows.js";
import { sourceFile } from "./tool-loop-benches.js";
import { send, startUi } from "./ui-benches.js";

/** A ~1.2 KB markdown answer: headings, emphasis, a list, a code block, a table. */
export const MARKDOWN_ANSWER = [
  "## What changed",
  "",
  "The writer now keeps the **previous frame** and rewrites only the lines that differ, so a",
  "streamed answer costs a few bytes per character instead of a whole redraw. It also reads the",
  "terminal's width at every write, which keeps a narrowed window free of stale rows.",
  "",
  "- frames are diffed line by line",
  "- unchanged rows are skipped with a cursor move",
  "- the old frame is erased by the rows it takes *now*",
  "",
  "```ts",
  "export function rowsAt(lines: string[], cols: number): number {",
  "  let rows = 0;",
  "  for (const line of lines) rows += Math.max(1, Math.ceil(width(line) / cols));",
  "  return rows;",
  "}",
  "```",
  "",
  "| case | before | after |",
  "| --- | --- | --- |",
  "| streaming | whole region | changed lines |",
  "| narrowing | stale rows | clean |",
  "",
  "That is all: run the benchmarks again to see the figures, and the terminal tests for resize.",
].join("\n");

/** The answer cut into token-sized pieces (~4 characters), one SSE frame each. */
export function tokens(text: string): string[] {
  return text.match(/[\s\S]{1,4}/g) ?? [];
}

/**
 * A 2,000-line transcript first, then the ~1.2 KB markdown answer streamed at ~200 tokens/s:
 * the bytes tern writes to the terminal from the answer's request to the turn's end, ÷ the
 * answer's characters.
 */
export async function streamBytesBench(p: Paths, plan: Plan): Promise<Row[]> {
  const perChar: number[] = [];
  let bytes = 0;
  for (let run = 0; run < plan.heavyRuns; run++) {
    const s = await scene();
    try {
      const transcript = Array.from({ length: 2000 }, (_, i) => `- transcript line ${i + 1}`).join("\n");
      s.provider.enqueue(openaiText(transcript));
      const stream = openaiStream();
      for (const t of tokens(MARKDOWN_ANSWER)) stream.text(t);
      s.provider.enqueue(
        stream.finish("stop").usage({ prompt_tokens: 10, completion_tokens: 300 }).delay(5).build(),
      );
      const ui = await startUi(p, s);
      try {
        await send(ui, "fill the scrollback");
        await ui.waitFor(/— turn 1 · completed/);
        await new Promise((r) => setTimeout(r, 500));
        let from = -1;
        onRequest(s.provider, (n) => {
          if (n === 2) from = ui.out.text.length;
        });
        await send(ui, "stream markdown");
        await ui.waitFor(/— turn 2 · completed/);
        if (from < 0) throw new Error("ui bench: the answer's request never arrived");
        bytes = Buffer.byteLength(ui.out.text.slice(from));
        perChar.push(bytes / MARKDOWN_ANSWER.length);
      } finally {
        await ui.close();
      }
    } finally {
      await s.close();
    }
  }
  return [
    {
      name: "ui stream bytes",
      metric: "bytes written per streamed character, 1.2 KB markdown, 2,000-line transcript above",
      unit: "B",
      stats: stats(perChar),
      target: { kind: "max", value: 50, text: "<= 50 B" },
      notes: { bytesLastRun: bytes, answerChars: MARKDOWN_ANSWER.length },
    },
  ];
}

/** How long the UI idles after the last turn before its VmRSS is read. */
const IDLE_MS = 7000;

/**
 * 25 turns of 20 read_file rounds and a markdown answer each (500 rounds) in one UI process:
 * VmRSS of the idle UI after the last turn, beside VmRSS after the first and 500 ms after the last.
 */
export async function sessionRssBench(p: Paths, plan: Plan): Promise<Row[]> {
  const turns = 25;
  const rounds = 20;
  const rss: number[] = [];
  let first = 0;
  let soon = 0;
  for (let run = 0; run < Math.min(plan.heavyRuns, 2); run++) {
    const s = await scene();
    try {
      writeFileSync(join(s.dirs.workspace, "notes.ts"), `${sourceFile(40)}\n`);
      for (let t = 1; t <= turns; t++) {
        for (let r = 1; r <= rounds; r++)
          s.provider.enqueue(
            openaiToolCalls([{ id: `call_${t}_${r}`, name: "read_file", args: { path: "notes.ts" } }]),
          );
        s.provider.enqueue(openaiText(MARKDOWN_ANSWER));
      }
      const ui = await startUi(p, { ...s, modelArgs: [...s.modelArgs, "--yes"] });
      try {
        for (let t = 1; t <= turns; t++) {
          await send(ui, `turn ${t}`);
          await ui.waitFor(new RegExp(`— turn ${t} · completed`), 120_000);
          // The pty's output is kept only from here on: 25 turns of frames would be big.
          ui.out.text = ui.out.text.slice(-4096);
          if (t === 1) first = procStatusBytes(ui.pty.pid, "VmRSS") ?? 0;
        }
        await new Promise((r) => setTimeout(r, 500));
        soon = procStatusBytes(ui.pty.pid, "VmRSS") ?? 0;
        // The idle UI, past idle-gc.ts's second collection (6 s after the turn), as a person
        // who looks at the process between prompts sees it.
        await new Promise((r) => setTimeout(r, IDLE_MS - 500));
        const last = procStatusBytes(ui.pty.pid, "VmRSS");
        if (last === undefined) throw new Error("ui bench: no /proc/<pid>/status (Linux only)");
        if (s.provider.requests.length !== turns * (rounds + 1))
          throw new Error(
            `ui bench: ${s.provider.requests.length} requests, expected ${turns * (rounds + 1)}`,
          );
        rss.push(last / MB);
      } finally {
        await ui.close();
      }
    } finally {
      await s.close();
    }
  }
  return [
    {
      name: "ui session RSS",
      metric: `VmRSS ${IDLE_MS / 1000} s idle after ${turns * rounds} rounds (${turns} turns of ${rounds} read_file + an answer)`,
      unit: "MB",
      stats: stats(rss),
      target: { kind: "max", value: 120, text: "<= 120 MB" },
      notes: {
        rssAfterTurn1MB: Math.round((first / MB) * 10) / 10,
        rss500msAfterLastTurnMB: Math.round((soon / MB) * 10) / 10,
      },
    },
  ];
}
