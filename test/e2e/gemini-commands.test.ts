// Gemini CLI's custom commands in tern (R-WF-7), through `tern run`: a `.gemini/commands/*.toml`
// file as Gemini CLI's custom commands page writes them (geminicli.com/docs/cli/custom-commands:
// `description`, `prompt` with `{{args}}`, `!{…}` shell injection, `@{…}` file injection, a
// subfolder giving the `git:` namespace); its `!{…}` is a bash call judged like any other; an
// unknown command says that no such command exists.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { ternRun, useE2E } from "./tools-support.js";

const e = useE2E();
const ws = (...p: string[]) => join(e.dirs.workspace, ...p);
const firstText = (i = 0) => {
  const user = e.provider.requests[i].body.messages.find((m: any) => m.role === "user");
  return typeof user.content === "string" ? user.content : user.content.map((p: any) => p.text).join("\n");
};
function toml(rel: string, text: string): void {
  mkdirSync(join(ws(".gemini", "commands", rel), ".."), { recursive: true });
  writeFileSync(ws(".gemini", "commands", rel), text);
}

describe("Gemini CLI commands (R-WF-7)", () => {
  it("/find-docs x expands {{args}}; with no {{args}} the typed command follows the prompt", async () => {
    toml(
      "find-docs.toml",
      `description = "Finds documentation"\nprompt = """\nFind the documentation about {{args}} in this repository.\n"""\n`,
    );
    toml("plain.toml", `prompt = "Summarise the repository."\n`);
    e.provider.enqueue(openaiText("found"), openaiText("summary"));
    const r = await ternRun(e, [], "/find-docs the parser");
    expect(r.code, r.stderr).toBe(0);
    expect(firstText(0)).toBe("Find the documentation about the parser in this repository.");
    expect((await ternRun(e, [], "/plain quickly")).code).toBe(0);
    expect(firstText(1)).toBe("Summarise the repository.\n\n/plain quickly");
  });

  it("!{…} runs as a bash call (asked like any other: --yes runs it), {{args}} shell-quoted inside; @{…} attaches", async () => {
    writeFileSync(ws("notes.txt"), "the notes\n");
    toml("git/show.toml", `prompt = """\nFiles named {{args}}:\n!{ls {{args}}}\nNotes: @{notes.txt}\n"""\n`);
    writeFileSync(ws("it's.txt"), "x");
    e.provider.enqueue(openaiText("seen"));
    const r = await ternRun(e, ["--yes"], "/git:show it's.txt");
    expect(r.code, r.stderr).toBe(0);
    const text = firstText(0);
    expect(text).toContain("Files named it's.txt:\nit's.txt\n");
    expect(text).toContain("the notes");
    // Without --yes the shell command is refused, and the prompt says so.
    e.provider.enqueue(openaiText("refused"));
    expect((await ternRun(e, [], "/git:show it's.txt")).code).toBe(0);
    expect(firstText(1)).toContain("denied: tern run was started without --yes");
  });

  it("an unknown command says no such command exists; a broken TOML file is one notice", async () => {
    toml("broken.toml", `prompt = "unclosed\n`);
    const r = await ternRun(e, [], "/nope x");
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      "tern: /nope: no such command (custom commands come from .tern/commands, .claude/commands and .gemini/commands)",
    );
    // The command files are read for a prompt that is a slash command.
    toml("hello.toml", `prompt = "say hello"\n`);
    e.provider.enqueue(openaiText("ok"));
    const ok = await ternRun(e, [], "/hello");
    expect(ok.code, ok.stderr).toBe(0);
    const notices = ok.events.filter((ev) => ev.type === "notice").map((ev) => ev.text);
    expect(notices.filter((n) => n.includes("broken.toml"))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${ws(".gemini", "commands", "broken.toml")}: not TOML \\(.*\\); command /broken skipped$`,
        ),
      ),
    ]);
  });
});
