// R-WF-7 on real files: Gemini CLI's own `.gemini/commands/*.toml` (test/fixtures/gemini-cli-commands,
// copied unchanged from google-gemini/gemini-cli at 5411f11; see SOURCE.md there), the commands its
// developers run on their repository. Each is read as a user's would be, and expanded as Gemini
// CLI's custom-commands page says: `{{args}}` raw outside `!{…}`, the typed command appended after
// a blank line where there is no `{{args}}`, `!{…}` a shell line with its braces balanced (a
// `find -exec … {} \;` inside), TOML's `\\(` an escaped backslash.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { readGeminiCommand } from "../../src/prompt/gemini-commands.js";

const DIR = join(__dirname, "..", "fixtures", "gemini-cli-commands");

function tomlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const path = join(dir, e);
      if (statSync(path).isDirectory()) return tomlFiles(path);
      return e.endsWith(".toml") ? [path] : [];
    });
}

function command(rel: string) {
  // The name tern gives it (custom-commands.ts): a subfolder is a namespace, as in Gemini CLI.
  const read = readGeminiCommand(
    readFileSync(join(DIR, rel), "utf8"),
    `/${rel.replace(/\.toml$/, "").replace("/", ":")}`,
  );
  if ("error" in read) throw new Error(`${rel}: ${read.error}`);
  return read;
}

describe("Gemini CLI's own commands", () => {
  it("every file is read, with its own description, and no {{args}} is left after expansion", () => {
    const files = tomlFiles(DIR).map((f) => relative(DIR, f));
    expect(files).toHaveLength(11);
    for (const rel of files) {
      const text = readFileSync(join(DIR, rel), "utf8");
      const described = /^description\s*=\s*"([^"]*)"/m.exec(text)?.[1];
      const read = command(rel);
      expect(read.description, rel).toBe(described);
      expect(read.expand("1234"), rel).not.toContain("{{args}}");
    }
  });

  it("a `find … -exec … {} \\;` inside !{…} becomes one shell line, and {{args}} ends the prompt raw", () => {
    const out = command("core.toml").expand("fix the parser");
    expect(out).toContain(
      '!`find packages/core \\( -path packages/cli/dist -o -path packages/core/dist -o -name node_modules \\) -prune -o -type f \\( -name "*.ts" -o -name "*.tsx" \\) ! -name "*.test.ts" ! -name "*.test.tsx" ! -name "*.d.ts" -exec echo "--- {} ---" \\; -exec cat {} \\;`',
    );
    expect(out.endsWith("fix the parser.")).toBe(true);
  });

  it("two shell lines in one prompt each become one; {{args}} in plain text is raw", () => {
    const out = command("review-frontend.toml").expand("4242");
    expect(out).toContain("1. Use `gh pr view 4242` to pull the information of the PR.");
    expect(out).toContain('!`git log --pretty=format:"%s" -n 5`');
    expect(out).toContain("!`cat .gemini/commands/strict-development-rules.md`");
  });

  it("without {{args}} the typed command follows after a blank line; under the namespaced name", () => {
    const out = command("github/cleanup-back-to-main.toml").expand("now");
    expect(
      out.endsWith("delete the branch that you noted in the first step.\n\n/github:cleanup-back-to-main now"),
    ).toBe(true);
    expect(command("github/cleanup-back-to-main.toml").expand("")).not.toContain(
      "/github:cleanup-back-to-main",
    );
  });

  it("an ssh remote's `git@host:` stays text", () => {
    expect(command("find-docs.toml").expand("x")).toContain("(`git@github.com:user/repo.git`)");
  });
});
