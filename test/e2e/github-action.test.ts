// The GitHub Action (R-AUTO-4), its steps run here as a runner runs a composite action: each step's
// `run` in bash, in the workspace, `${{ inputs.* }}` from the inputs (or action.yml's defaults),
// a real GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, the outputs read back through action.yml's
// `${{ steps.run.outputs.* }}`. Then the fleet case: two jobs' sessions merged into one TERN_HOME
// and billed together by `tern metrics --rebuild --json`.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cliEnv, runCli } from "../support/cli.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { makeTempDirs } from "../support/tern-home.js";
import { useE2E } from "./tools-support.js";

const ACTION_PATH = resolve(import.meta.dirname, "../..");
const action = parse(readFileSync(join(ACTION_PATH, "action.yml"), "utf8"));
const e = useE2E();

interface ActionRun {
  code: number;
  outputs: Record<string, string>;
  summary: string;
  home: string;
}

/** GITHUB_OUTPUT's `name<<DELIM … DELIM` and `name=value` forms. */
function readOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      out[heredoc[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (/^[\w-]+=/.test(lines[i]))
      out[lines[i].split("=")[0]] = lines[i].slice(lines[i].indexOf("=") + 1);
  }
  return out;
}

/** One step's script in bash; async, since the fake provider answers from this same process. */
function bash(script: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-c", script], { cwd: e.dirs.workspace, env, stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done(code ?? 1);
    });
  });
}

async function runAction(inputs: Record<string, string>, home = e.dirs.home): Promise<ActionRun> {
  const runnerTemp = join(home, "runner-temp");
  mkdirSync(runnerTemp, { recursive: true });
  const outputFile = join(runnerTemp, "output");
  const summaryFile = join(runnerTemp, "summary");
  writeFileSync(outputFile, "");
  writeFileSync(summaryFile, "");
  const value = (name: string) => inputs[name] ?? action.inputs[name].default ?? "";
  const expand = (text: string) =>
    text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name) => value(name));
  let code = 0;
  for (const step of action.runs.steps) {
    const env: Record<string, string> = {};
    for (const [key, raw] of Object.entries(step.env ?? {})) env[key] = expand(String(raw));
    code = await bash(
      expand(step.run),
      cliEnv(home, {
        ...env,
        OPENAI_API_KEY: "sk-test-action",
        GITHUB_ACTION_PATH: ACTION_PATH,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        RUNNER_TEMP: runnerTemp,
      }),
    );
    if (code !== 0) break;
  }
  const stepOutputs = readOutputs(readFileSync(outputFile, "utf8"));
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries<{ value: string }>(action.outputs)) {
    const ref = /steps\.run\.outputs\.([\w-]+)/.exec(spec.value);
    outputs[name] = ref ? (stepOutputs[ref[1]] ?? "") : "";
  }
  return { code, outputs, summary: readFileSync(summaryFile, "utf8"), home };
}

const priced = (home: string) =>
  writeFileSync(
    join(home, "config.json"),
    JSON.stringify({ models: { "openai/mock-1": { pricing: { input: 1, output: 2 } } } }),
  );

describe("the GitHub Action", () => {
  it("runs one sandboxed turn: outputs set, answer, diff and cost in the job summary", async () => {
    priced(e.dirs.home);
    e.provider.enqueue(
      openaiToolCalls(
        [
          { id: "c1", name: "write_file", args: { path: "NOTES.md", content: "new line\n" } },
          { id: "c2", name: "bash", args: { command: "cat NOTES.md" } },
        ],
        { prompt_tokens: 1000, completion_tokens: 100 },
      ),
      openaiText("Rewrote the README.", { prompt_tokens: 1200, completion_tokens: 50 }),
    );
    const run = await runAction({
      prompt: "--rewrite the README; $(touch injected)",
      model: "openai/mock-1",
      "base-url": e.provider.baseUrl,
      allow: "bash(cat *)\nbash(ls*)",
    });
    expect(run.code, run.summary).toBe(0);
    expect(readFileSync(join(e.dirs.workspace, "NOTES.md"), "utf8")).toBe("new line\n");
    expect(run.outputs["stop-reason"]).toBe("completed");
    expect(run.outputs.result).toBe("Rewrote the README.");
    // (1000 + 1200) × $1/M + (100 + 50) × $2/M
    expect(run.outputs.cost).toBe("0.0025");
    expect(run.outputs["session-id"]).toMatch(/\S/);
    expect(run.summary).toContain("**completed** · exit 0 · cost $0.0025");
    expect(run.summary).toContain("Rewrote the README.");
    expect(run.summary).toMatch(/\+\+\+ b\/NOTES.md[\s\S]*\+new line/);
    // The prompt reached tern as one word: no option, no shell expansion.
    expect(JSON.stringify(e.provider.requests[0].body.messages)).toContain(
      "--rewrite the README; $(touch injected)",
    );
    expect(spawnSync("ls", [e.dirs.workspace], { encoding: "utf8" }).stdout).not.toContain("injected");
    // The bash call ran in the sandbox, allowed by the rule passed through `allow`.
    const toolResult = JSON.stringify(e.provider.requests[1].body.messages);
    expect(toolResult).toContain("new line");
  });

  it("an output-schema the answer breaks fails the step with exit 3 and stop-reason output_invalid", async () => {
    const schema = join(e.dirs.workspace, "schema.json");
    writeFileSync(schema, JSON.stringify({ type: "object", required: ["ok"] }));
    e.provider.enqueue(openaiText("not json"), openaiText('{"nope": 1}'));
    const run = await runAction({
      prompt: "answer",
      model: "local/x",
      "base-url": e.provider.baseUrl,
      "output-schema": schema,
    });
    expect(run.code).toBe(3);
    expect(run.outputs["stop-reason"]).toBe("output_invalid");
    expect(run.outputs.cost).toBe("unknown");
    expect(run.summary).toContain("**output_invalid** · exit 3 · cost unknown");
    expect(run.summary).toContain("must have required property 'ok'");
  });

  it("a fleet: two jobs' sessions merged into one TERN_HOME are billed together by tern metrics", async () => {
    const second = makeTempDirs();
    try {
      for (const home of [e.dirs.home, second.home]) priced(home);
      e.provider.enqueue(openaiText("job one", { prompt_tokens: 100, completion_tokens: 10 }));
      expect(
        (await runAction({ prompt: "one", model: "openai/mock-1", "base-url": e.provider.baseUrl })).code,
      ).toBe(0);
      e.provider.enqueue(openaiText("job two", { prompt_tokens: 300, completion_tokens: 30 }));
      expect(
        (
          await runAction(
            { prompt: "two", model: "openai/mock-1", "base-url": e.provider.baseUrl },
            second.home,
          )
        ).code,
      ).toBe(0);
      // What a merging job does with the downloaded artifacts: one sessions/ folder, then --rebuild.
      const merged = makeTempDirs();
      try {
        for (const home of [e.dirs.home, second.home])
          cpSync(join(home, "sessions"), join(merged.home, "sessions"), { recursive: true });
        const out = await runCli(["metrics", "--rebuild", "--json"], {
          home: merged.home,
          cwd: e.dirs.workspace,
        });
        expect(out.code, out.stderr).toBe(0);
        const metrics = JSON.parse(out.stdout);
        expect(metrics.rows).toHaveLength(2);
        const tokens = metrics.rows.reduce((sum: number, row: { prompt: number }) => sum + row.prompt, 0);
        expect(tokens).toBe(400);
      } finally {
        merged.cleanup();
      }
    } finally {
      second.cleanup();
    }
  });
});
