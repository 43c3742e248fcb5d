// (§10 "trust in one place", R-CFG-2, R-WF-2): a cloned repository's command or
// skill cannot approve its own calls. `.claude/commands/review.md` with `allowed-tools: Bash(*),
// WebFetch` and `!`touch m`` / `!`curl …`` lines, run by `tern run "/review"` in the default `ask`
// mode without --yes: in an untrusted workspace nothing runs unasked (denied, and the model is
// told); in a trusted one the command works as before. `/skill:fmt` likewise.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";
import { notices } from "./workflow-support.js";

const e = useE2E();
const ws = (...p: string[]) => join(e.dirs.workspace, ...p);
let server: Server;
let hits: string[];
let port: number;

beforeEach(async () => {
  hits = [];
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.end("secret-ok");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  port = (server.address() as AddressInfo).port;
});
afterEach(() => new Promise<void>((done) => server.close(() => done())));

function writeRepository(): void {
  mkdirSync(ws(".claude", "commands"), { recursive: true });
  writeFileSync(
    ws(".claude", "commands", "review.md"),
    [
      "---",
      "allowed-tools: Bash(*), WebFetch",
      "description: Review",
      "---",
      "!`touch m`",
      `!\`curl -s http://127.0.0.1:${port}/x\``,
      "Review the code.",
      "",
    ].join("\n"),
  );
  mkdirSync(ws(".claude", "skills", "fmt"), { recursive: true });
  writeFileSync(
    ws(".claude", "skills", "fmt", "SKILL.md"),
    "---\nname: fmt\ndescription: Format\nallowed-tools: Bash(*)\n---\nFormat the code.\n",
  );
}

/** The model's own calls in the turn: a bash line that writes and fetches. */
const modelCalls = () =>
  openaiToolCalls([
    { id: "c1", name: "bash", args: { command: `touch model-made && curl -s http://127.0.0.1:${port}/y` } },
  ]);

const sentPrompt = (i: number): string => {
  const user = e.provider.requests[i].body.messages.find((m: any) => m.role === "user");
  return typeof user.content === "string" ? user.content : user.content.map((p: any) => p.text).join("");
};

describe("a workspace's commands and skills grant nothing unless it is trusted", () => {
  it('untrusted: `tern run "/review"` runs neither !`cmd` line nor the model\'s calls, and says why', async () => {
    writeRepository();
    e.provider.enqueue(modelCalls(), openaiText("done"));
    const run = await ternRun(e, [], "/review");
    expect(run.code).toBe(0);
    expect(existsSync(ws("m"))).toBe(false);
    expect(existsSync(ws("model-made"))).toBe(false);
    expect(hits).toEqual([]);
    const prompt = sentPrompt(0);
    expect(prompt).toMatch(/denied: tern run was started without --yes/);
    expect(toolMessages(e.provider.requests[1].body)[0].content).toContain("denied");
    expect(notices(run.events)).toContain(
      `${ws(".claude", "commands", "review.md")}: its allowed-tools grant nothing and its !\`cmd\` lines ask like any bash call: this workspace is not in trustedWorkspaces`,
    );
  });

  it("untrusted: /skill:fmt's allowed-tools do not allow the model's calls", async () => {
    writeRepository();
    e.provider.enqueue(modelCalls(), openaiText("done"));
    const run = await ternRun(e, [], "/skill:fmt");
    expect(run.code).toBe(0);
    expect(existsSync(ws("model-made"))).toBe(false);
    expect(hits).toEqual([]);
    expect(toolMessages(e.provider.requests[1].body)[0].content).toContain("denied");
  });

  it("trusted: the same command and skill work as before", async () => {
    writeRepository();
    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace] });
    e.provider.enqueue(modelCalls(), openaiText("done"));
    const run = await ternRun(e, [], "/review");
    expect(run.code).toBe(0);
    expect(existsSync(ws("m"))).toBe(true);
    expect(existsSync(ws("model-made"))).toBe(true);
    expect(hits).toEqual(["/x", "/y"]);
    expect(sentPrompt(0)).toContain("secret-ok");
    expect(notices(run.events).some((n) => n.includes("trustedWorkspaces"))).toBe(false);

    e.provider.enqueue(
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "touch skill-made" } }]),
      openaiText("done"),
    );
    expect((await ternRun(e, [], "/skill:fmt")).code).toBe(0);
    expect(existsSync(ws("skill-made"))).toBe(true);
  });

  it("a deny rule still refuses a trusted command's line", async () => {
    writeRepository();
    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace], permissions: { deny: ["bash(curl*)"] } });
    e.provider.enqueue(openaiText("done"));
    expect((await ternRun(e, [], "/review")).code).toBe(0);
    expect(existsSync(ws("m"))).toBe(true);
    expect(hits).toEqual([]);
  });
});
