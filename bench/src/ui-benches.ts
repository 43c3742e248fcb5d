// Benchmarks of the interactive UI in a real pseudo-terminal (node-pty): bytes written to the
// terminal per keystroke with a 2,000-line transcript, keystroke-to-screen time, and CPU per
// frame while an answer streams at 200 tokens/s.
import { readFileSync } from "node:fs";
import { type IPty, spawn } from "node-pty";
import { openaiStream, openaiText } from "../../test/support/openai-script.js";
import type { Plan } from "./cli-benches.js";
import { onRequest, type Paths, profileFlags, type Scene, scene, stats } from "./harness.js";
import type { Row } from "./rows.js";

/** Ink wraps every frame in synchronized-output markers: one BSU begins one frame. */
const FRAME_START = "\x1b[?2026h";
const FRAME_END = "\x1b[?2026l";

export interface UiProcess {
  pty: IPty;
  out: { text: string };
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A program in node-pty (100×30, xterm-256color) with its output kept and waited on. */
export function ptyProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv, label: string): UiProcess {
  const clean = { ...env, TERM: "xterm-256color" } as Record<string, string>;
  delete clean.CI;
  const pty = spawn(process.execPath, args, { name: "xterm-256color", cols: 100, rows: 30, cwd, env: clean });
  const out = { text: "" };
  pty.onData((d) => {
    out.text += d;
  });
  const waitFor = async (pattern: RegExp | string, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(typeof pattern === "string" ? out.text.includes(pattern) : pattern.test(out.text))) {
      if (Date.now() > deadline) throw new Error(`${label}: timed out waiting for ${String(pattern)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return {
    pty,
    out,
    waitFor,
    close: async () => {
      pty.kill();
      // A profiled child writes its profile as it exits (SIGHUP quits the UI): give it time.
      await new Promise((r) => setTimeout(r, profileFlags().length > 0 ? 3000 : 100));
    },
  };
}

export async function startUi(p: Paths, s: Scene): Promise<UiProcess> {
  const ui = ptyProcess([...profileFlags(), p.bin, ...s.modelArgs], s.dirs.workspace, s.env, "ui bench");
  await ui.waitFor(/context \d+% · \d+ tokens/);
  // Ink turns raw mode on right after its first frame.
  await new Promise((r) => setTimeout(r, 300));
  return ui;
}

export async function send(ui: UiProcess, text: string): Promise<void> {
  for (const ch of text) {
    ui.pty.write(ch);
    await new Promise((r) => setTimeout(r, 10));
  }
  ui.pty.write("\r");
}

/** user + system CPU of a process so far, in ms (Linux /proc; 100 ticks a second). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Keystrokes into an idle composer below a 2,000-line transcript: bytes each, and time to its frame. */
export async function keystrokeBench(p: Paths, plan: Plan): Promise<Row[]> {
  const s = await scene();
  const bytes: number[] = [];
  const times: number[] = [];
  try {
    const transcript = Array.from({ length: 2000 }, (_, i) => `- transcript line ${i + 1}`).join("\n");
    s.provider.enqueue(openaiText(transcript));
    const ui = await startUi(p, s);
    try {
      await send(ui, "fill the scrollback");
      await ui.waitFor(/— turn 1 · completed/);
      await new Promise((r) => setTimeout(r, 500));
      const keys = (plan.runs + plan.warmup) * 4;
      for (let i = 0; i < keys; i++) {
        const before = ui.out.text.length;
        const started = process.hrtime.bigint();
        ui.pty.write(String.fromCharCode(97 + (i % 26)));
        while (!ui.out.text.slice(before).includes(FRAME_END)) await new Promise((r) => setImmediate(r));
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        // Let any trailing write land before counting the bytes.
        await new Promise((r) => setTimeout(r, 80));
        if (i >= plan.warmup * 4) {
          times.push(ms);
          bytes.push(Buffer.byteLength(ui.out.text.slice(before)));
        }
      }
    } finally {
      await ui.close();
    }
  } finally {
    await s.close();
  }
  return [
    {
      name: "ui keystroke bytes",
      metric: "bytes written per keystroke, 2,000-line transcript",
      unit: "B",
      stats: stats(bytes),
      target: { kind: "max", value: 2048, text: "<= 2 KB" },
    },
    {
      name: "ui keystroke time",
      metric: "keystroke to its frame on the pty",
      unit: "ms",
      stats: stats(times),
      target: { kind: "max", value: 16, text: "<= 16 ms" },
    },
  ];
}

/** An answer of ~1,000 tokens streamed at 200 tokens/s: the UI process's CPU per frame it drew. */
export async function streamFrameBench(p: Paths, plan: Plan): Promise<Row[]> {
  const perFrame: number[] = [];
  let frames = 0;
  for (let run = 0; run < plan.heavyRuns; run++) {
    const s = await scene();
    try {
      const stream = openaiStream();
      for (let i = 0; i < 1000; i++)
        stream.text(i % 40 === 39 ? "word.\n\n" : i % 97 === 0 ? "**bold** " : "word ");
      s.provider.enqueue(
        stream.finish("stop").usage({ prompt_tokens: 10, completion_tokens: 1000 }).delay(5).build(),
      );
      const ui = await startUi(p, s);
      try {
        let startCpu = 0;
        let startAt = 0;
        onRequest(s.provider, () => {
          startCpu = cpuMs(ui.pty.pid);
          startAt = ui.out.text.length;
        });
        await send(ui, "stream");
        await ui.waitFor(/— turn 1 · completed/);
        const cpu = cpuMs(ui.pty.pid) - startCpu;
        frames = ui.out.text.slice(startAt).split(FRAME_START).length - 1;
        if (frames === 0) throw new Error("ui bench: no frames drawn while streaming");
        perFrame.push(cpu / frames);
      } finally {
        await ui.close();
      }
    } finally {
      await s.close();
    }
  }
  return [
    {
      name: "ui stream frame",
      metric: "CPU per frame, 200 tokens/s answer (whole process)",
      unit: "ms",
      stats: stats(perFrame),
      target: { kind: "max", value: 8, text: "<= 8 ms" },
      notes: { framesLastRun: frames },
    },
  ];
}
