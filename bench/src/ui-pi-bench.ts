// CPU per streamed token of the interactive UI, tern beside pi (@mariozechner/pi-coding-agent,
// the last line of it for Node 20) in the same run: both in node-pty (100×30) against the same
// fake provider and the same ~900-token markdown stream at ~200 tokens/s; each process's own
// CPU (/proc/<pid>/stat) from the answer's request to its turn's end (+300 ms), ÷ tokens.
//
// pi is not a dependency of tern. Install it once, outside the repository:
//   mkdir -p /tmp/pi && cd /tmp/pi && npm install --ignore-scripts @mariozechner/pi-coding-agent@0.73.1
// and point TERN_BENCH_PI at its CLI (/tmp/pi/node_modules/@mariozechner/pi-coding-agent/dist/cli.js).
// Without it the row shows tern's figure alone and says why in its notes.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openaiStream } from "../../test/support/openai-script.js";
import type { Plan } from "./cli-benches.js";
import { onRequest, type Paths, type Scene, scene, stats } from "./harness.js";
import type { Row } from "./rows.js";
import { cpuMs, ptyProcess, send, startUi, type UiProcess } from "./ui-benches.js";
import { MARKDOWN_ANSWER, tokens } from "./ui-stream-benches.js";

const ANSWER = [MARKDOWN_ANSWER, MARKDOWN_ANSWER, MARKDOWN_ANSWER].join("\n\n");
const TOKENS = tokens(ANSWER);

function script() {
  const s = openaiStream();
  for (const t of TOKENS) s.text(t);
  return s.finish("stop").usage({ prompt_tokens: 10, completion_tokens: TOKENS.length }).delay(5).build();
}

/** pi in a pseudo-terminal, with its config folder in the scene's home and the fake provider as its only model. */
async function startPi(cli: string, s: Scene): Promise<UiProcess> {
  const agent = join(s.dirs.home, "pi-agent");
  mkdirSync(agent, { recursive: true });
  writeFileSync(
    join(agent, "models.json"),
    JSON.stringify({
      providers: {
        fake: {
          baseUrl: s.provider.baseUrl,
          api: "openai-completions",
          apiKey: "bench-key",
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: "bench-1" }],
        },
      },
    }),
  );
  const env: NodeJS.ProcessEnv = { ...s.env, HOME: s.dirs.home, PI_CODING_AGENT_DIR: agent };
  const ui = ptyProcess([cli, "--provider", "fake", "--model", "bench-1"], s.dirs.workspace, env, "pi bench");
  // pi's footer names the model once it is ready for input.
  await ui.waitFor("bench-1");
  await new Promise((r) => setTimeout(r, 1000));
  return ui;
}

/** CPU (ms) of the UI process from the answer's request until `done` shows, + 300 ms. */
async function measure(s: Scene, ui: UiProcess, done: RegExp): Promise<number> {
  let start = -1;
  onRequest(s.provider, () => {
    start = cpuMs(ui.pty.pid);
  });
  await send(ui, "stream markdown");
  await ui.waitFor(done);
  await new Promise((r) => setTimeout(r, 300));
  if (start < 0) throw new Error("ui bench: the answer's request never arrived");
  return cpuMs(ui.pty.pid) - start;
}

export async function piCpuBench(p: Paths, plan: Plan): Promise<Row[]> {
  const cli = process.env.TERN_BENCH_PI;
  const piMissing = !cli
    ? "TERN_BENCH_PI is not set (see bench/src/ui-pi-bench.ts for the install line)"
    : !existsSync(cli)
      ? `TERN_BENCH_PI=${cli} does not exist`
      : undefined;
  const tern: number[] = [];
  const pi: number[] = [];
  // Interleaved, so machine noise hits both.
  for (let run = 0; run < plan.heavyRuns; run++) {
    const s = await scene();
    try {
      s.provider.enqueue(script());
      const ui = await startUi(p, s);
      try {
        tern.push((await measure(s, ui, /— turn 1 · completed/)) / TOKENS.length);
      } finally {
        await ui.close();
      }
    } finally {
      await s.close();
    }
    if (piMissing || !cli) continue;
    const q = await scene();
    try {
      q.provider.enqueue(script());
      const ui = await startPi(cli, q);
      try {
        // pi's footer shows the turn's usage (↑ in, ↓ out) when the answer is done.
        pi.push((await measure(q, ui, /↑\d+ ↓\d+/)) / TOKENS.length);
      } finally {
        await ui.close();
      }
    } finally {
      await q.close();
    }
  }
  const row: Row = {
    name: "ui stream CPU",
    metric: `CPU per streamed token, ${TOKENS.length}-token markdown answer at ~200 tokens/s (whole process)`,
    unit: "ms",
    stats: stats(tern),
    target: piMissing
      ? { kind: "max", value: Number.POSITIVE_INFINITY, text: "<= pi's (pi not run)" }
      : { kind: "ratio", value: 1, text: "<= pi's" },
    notes: piMissing ? { pi: `not run: ${piMissing}` } : { pi: "@mariozechner/pi-coding-agent" },
  };
  if (!piMissing) row.baseline = { name: "pi", stats: stats(pi) };
  return [row];
}
