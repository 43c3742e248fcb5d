// Trust in one place (§10, amendment of 2026-12-07): one repository brings a file of every
// kind — `.tern/config.json`, a command, a skill, hooks and a status line in
// `.claude/settings.json`, `.mcp.json`, an instruction file importing from TERN_HOME, an `@file`
// attachment leading outside — and the same runs go through it untrusted and then trusted (listed
// in the person's `trustedWorkspaces`). Untrusted, none of them runs a program, approves a call or
// reads outside the workspace, and each says so in one line; trusted, each works. An attachment
// outside the workspace asks in both (the person's approval, not the repository's trust, lets it
// through). Agents are walked too: an agent's `tools` only narrow, so its `Bash(*)` grants nothing
// either way.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";
import { notices } from "./workflow-support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const e = useE2E();
const ws = (...p: string[]) => join(e.dirs.workspace, ...p);

function repository(): { HOME: string } {
  const user = join(e.dirs.root, "user");
  mkdirSync(user);
  mkdirSync(join(e.dirs.root, "outside"));
  writeFileSync(join(e.dirs.root, "outside", "x"), "OUTSIDE-MARKER\n");
  writeFileSync(join(e.dirs.home, "shared.md"), "HOME-IMPORT-MARKER\n");
  mkdirSync(ws(".tern"));
  writeFileSync(ws(".tern", "config.json"), JSON.stringify({ permissions: { allow: ["bash(touch*)"] } }));
  mkdirSync(ws(".claude", "commands"), { recursive: true });
  writeFileSync(
    ws(".claude", "commands", "review.md"),
    "---\nallowed-tools: Bash(echo*)\n---\nRun: !`echo cmd-ran > cmd-ran`\nRead @../outside/x\n",
  );
  mkdirSync(ws(".claude", "skills", "fmt"), { recursive: true });
  writeFileSync(
    ws(".claude", "skills", "fmt", "SKILL.md"),
    "---\nname: fmt\nallowed-tools: Bash(mkdir*)\n---\nFormat.\n",
  );
  mkdirSync(ws(".claude", "agents"), { recursive: true });
  writeFileSync(
    ws(".claude", "agents", "helper.md"),
    "---\nname: helper\ndescription: Helps\ntools: Bash(*)\n---\nYou help.\n",
  );
  writeFileSync(
    ws(".claude", "settings.json"),
    JSON.stringify({
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "touch hook-ran" }] }] },
      statusLine: { type: "command", command: "echo status" },
    }),
  );
  writeFileSync(
    ws(".mcp.json"),
    JSON.stringify({ mcpServers: { Files: { command: process.execPath, args: [SERVER] } } }),
  );
  writeFileSync(ws("AGENTS.md"), `Project rules. @${join(e.dirs.home, "shared.md")}\n`);
  return { HOME: user };
}

const system = (i: number) => JSON.stringify(e.provider.requests[i].body.messages[0]);
const tools = (i: number): string[] => e.provider.requests[i].body.tools.map((t: any) => t.function.name);

async function walk(trusted: boolean) {
  const env = repository();
  if (trusted) writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace] });
  // The command: its !`cmd` line, the model's `touch` (allowed by .tern/config.json only), hooks,
  // servers, the instruction import and the attachment, in one run.
  e.provider.enqueue(
    openaiToolCalls([{ id: "t", name: "bash", args: { command: "touch model-ran" } }]),
    openaiText("ok"),
  );
  const command = await ternRun(e, [], "/review", { env });
  expect(command.code).toBe(0);
  // The skill: its allowed-tools are the only rule that could allow `mkdir`.
  e.provider.enqueue(
    openaiToolCalls([{ id: "m", name: "bash", args: { command: "mkdir skill-ran" } }]),
    openaiText("ok"),
  );
  const skill = await ternRun(e, [], "/skill:fmt", { env });
  expect(skill.code).toBe(0);
  // The agent: its `tools: Bash(*)` names tools, it approves nothing (no rule allows `mkdir`).
  e.provider.enqueue(
    openaiToolCalls([
      { id: "a", name: "task", args: { description: "help", prompt: "go", agent: "helper" } },
    ]),
    openaiToolCalls([{ id: "c", name: "bash", args: { command: "mkdir agent-ran" } }]),
    openaiText("child done"),
    openaiText("ok"),
  );
  expect((await ternRun(e, [], "delegate", { env })).code).toBe(0);
  expect(existsSync(ws("agent-ran"))).toBe(false);
  expect(toolMessages(e.provider.requests[6].body)[0].content).toContain("denied");
  return { command, skill, said: notices(command.events) };
}

describe("every file a workspace brings asks one trust check", () => {
  it("untrusted: nothing runs, approves or reads outside; each kind says so in one line", async () => {
    const { said } = await walk(false);
    const why = "this workspace is not in trustedWorkspaces";
    // config
    expect(existsSync(ws("model-ran"))).toBe(false);
    expect(said).toContain(`.tern/config.json: permissions.allow ignored: ${why}`);
    // command: its allowed-tools grant nothing, its !`cmd` asks (denied without --yes)
    expect(existsSync(ws("cmd-ran"))).toBe(false);
    expect(
      said.some((n) =>
        n.startsWith(`${ws(".claude", "commands", "review.md")}: its allowed-tools grant nothing`),
      ),
    ).toBe(true);
    // skill
    expect(existsSync(ws("skill-ran"))).toBe(false);
    expect(toolMessages(e.provider.requests[3].body)[0].content).toContain("denied");
    // hooks and status line
    expect(existsSync(ws("hook-ran"))).toBe(false);
    expect(said).toContain(`${ws(".claude", "settings.json")}: hooks not run: ${why}`);
    expect(said).toContain(`${ws(".claude", "settings.json")}: statusLine not run: ${why}`);
    // .mcp.json
    expect(tools(0).some((n) => n.startsWith("files__"))).toBe(false);
    expect(said.some((n) => n.startsWith(`${ws(".mcp.json")}: server Files not started: not approved`))).toBe(
      true,
    );
    // instruction import from TERN_HOME
    expect(system(0)).not.toContain("HOME-IMPORT-MARKER");
    expect(system(0)).toContain("Project rules.");
    // attachment outside the workspace
    expect(JSON.stringify(e.provider.requests[0].body)).not.toContain("OUTSIDE-MARKER");
    expect(said.some((n) => n.startsWith("@../outside/x not attached"))).toBe(true);
    // agent: offered to the model; its child ran, and its Bash(*) granted nothing (checked in walk)
    expect(JSON.stringify(e.provider.requests[0].body.tools)).toContain("helper");
    expect(JSON.stringify(e.provider.requests[5].body)).toContain("You help.");
  });

  it("trusted: each kind works as it always did; the outside attachment still asks", async () => {
    const { said } = await walk(true);
    expect(existsSync(ws("model-ran"))).toBe(true);
    expect(existsSync(ws("cmd-ran"))).toBe(true);
    expect(existsSync(ws("skill-ran"))).toBe(true);
    expect(existsSync(ws("hook-ran"))).toBe(true);
    expect(tools(0)).toContain("files__echo");
    expect(system(0)).toContain("HOME-IMPORT-MARKER");
    expect(said.filter((n) => n.includes("trustedWorkspaces"))).toEqual([]);
    expect(JSON.stringify(e.provider.requests[0].body)).not.toContain("OUTSIDE-MARKER");
    expect(said.some((n) => n.startsWith("@../outside/x not attached"))).toBe(true);
  });

  it("a workspace's own file leading outside it (CLAUDE.md, a command, a skill, an agent) is read only when trusted", async () => {
    const secret = join(e.dirs.root, "secret.md");
    writeFileSync(secret, "---\nname: leak\ndescription: SECRET-MARKER\n---\nSECRET-MARKER body\n");
    symlinkSync(secret, ws("CLAUDE.md"));
    mkdirSync(ws(".claude", "commands"), { recursive: true });
    symlinkSync(secret, ws(".claude", "commands", "leak.md"));
    mkdirSync(ws(".claude", "skills", "leak"), { recursive: true });
    symlinkSync(secret, ws(".claude", "skills", "leak", "SKILL.md"));
    mkdirSync(ws(".claude", "agents"), { recursive: true });
    symlinkSync(secret, ws(".claude", "agents", "leak.md"));
    const env = { HOME: join(e.dirs.root, "user") };
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "hi", { env });
    expect(run.code).toBe(0);
    expect(JSON.stringify(e.provider.requests[0].body)).not.toContain("SECRET-MARKER");
    const said = notices(run.events);
    for (const file of [
      ws("CLAUDE.md"),
      ws(".claude", "skills", "leak", "SKILL.md"),
      ws(".claude", "agents", "leak.md"),
    ])
      expect(said).toContain(
        `${file}: leads to ${secret}, outside the workspace; not read: this workspace is not in trustedWorkspaces`,
      );
    const command = await ternRun(e, [], "/leak", { env });
    expect(command.code).toBe(2);
    expect(JSON.stringify(e.provider.requests)).not.toContain("SECRET-MARKER");

    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace] });
    e.provider.enqueue(openaiText("ok"));
    expect((await ternRun(e, [], "/leak", { env })).code).toBe(0);
    expect(JSON.stringify(e.provider.requests.at(-1)!.body)).toContain("SECRET-MARKER body");
  });
});
