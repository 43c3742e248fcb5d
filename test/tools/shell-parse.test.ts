// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines, `${…}` included on purpose.
// The bash-faithful reader behind permission rules (R-TOOL-2): what it splits, what it keeps
// together, what it finds inside substitutions and here-documents, and what it cannot read.
import { describe, expect, it } from "vitest";
import { simpleCommands } from "../../src/tools/policy/rules.js";
import { parseShell } from "../../src/tools/shell/shell-parse.js";

const all = (command: string) =>
  parseShell(command).commands.map((c) => c.words.map((w) => w.value).join(" "));

describe("parseShell", () => {
  it.each([
    ["git status a#; touch PWNED", ["git status a#", "touch PWNED"]],
    ["git status a\\#; touch PWNED", ["git status a#", "touch PWNED"]],
    ["echo 'a;b' # c; rm x", ["echo a;b"]],
    ['echo "a && b" && c', ["echo a && b", "c"]],
    ["a && b || c | d & e\nf", ["a", "b", "c", "d", "e", "f"]],
    ["a |& b ;; c", ["a", "b", "c"]],
    ["a\\\nb", ["ab"]],
    ["echo $'a;b\\x3b' ; c", ["echo a;b;", "c"]],
    ["x=(a b); c", ["x=", "a b", "c"]],
    ["(a; b) && { c; }", ["a", "b", "{ c", "}"]],
    ["echo a#b #c\nd", ["echo a#b", "d"]],
    ["echo ${x:-'}'}; touch P", ["echo ${x:-'}'}", "touch P"]],
    ['echo "$HOME"/x', ["echo $HOME/x"]],
  ])("%j reads as %j", (command, expected) => {
    expect(all(command)).toEqual(expected);
    expect(parseShell(command).errors).toEqual([]);
  });

  it("finds the commands inside every kind of substitution", () => {
    for (const command of [
      "echo $(rm -rf x)",
      "echo `rm -rf x`",
      "cat <(rm -rf x)",
      "tee >(rm -rf x)",
      'echo "$(rm -rf x)"',
      "echo ${y:-$(rm -rf x)}",
      "echo $((1 + $(rm -rf x)))",
      "((a[$(rm -rf x)]))",
      "cat <<EOF\n$(rm -rf x)\nEOF",
      "echo `echo \\`rm -rf x\\``",
    ]) {
      const parsed = parseShell(command);
      expect(parsed.substitutes, command).toBe(true);
      expect(
        parsed.commands.some(
          (c) =>
            c.nested &&
            c.words
              .map((w) => w.value)
              .join(" ")
              .includes("rm -rf x"),
        ),
        command,
      ).toBe(true);
    }
  });

  it("a quoted here-document body is not expanded and not split into commands", () => {
    const parsed = parseShell("cat <<'EOF' > out\n$(rm -rf x); touch y\nEOF\necho done");
    expect(parsed.substitutes).toBe(false);
    expect(all("cat <<'EOF' > out\n$(rm -rf x); touch y\nEOF\necho done")).toEqual(["cat", "echo done"]);
    const redirects = parsed.commands[0].redirects;
    expect(redirects.map((r) => r.op)).toEqual(["<<", ">"]);
    expect(redirects[0].body).toBe("$(rm -rf x); touch y");
    expect(parseShell("cat <<-EOF\n\tbody\n\tEOF\nls").commands.map((c) => c.words[0].value)).toEqual([
      "cat",
      "ls",
    ]);
  });

  it("reads redirects with their operators and targets", () => {
    const parsed = parseShell("a 2>&1 >out &>>both 3<>rw >|clob <in 2>/dev/null {fd}>x >&2 >&file");
    expect(parsed.commands[0].redirects.map((r) => `${r.op}${r.target.value}`)).toEqual([
      ">&1",
      ">out",
      "&>>both",
      "<>rw",
      ">|clob",
      "<in",
      ">/dev/null",
      ">x",
      ">&2",
      ">&file",
    ]);
    expect(parsed.commands[0].words.map((w) => w.value)).toEqual(["a"]);
  });

  it.each([
    ["echo ${}", /bad substitution/],
    ["echo 'open", /unterminated '/],
    ['echo "open', /unterminated "/],
    ["echo $(open", /missing \)/],
    ["echo `open", /unterminated `/],
    ["cat <<EOF\nno end", /here-document not closed/],
    ["a )", /unmatched \)/],
    ["echo >", /without a target/],
    ["case x in x) a;; esac", /unmatched \)/],
  ])("%j cannot be read faithfully", (command, error) => {
    expect(parseShell(command).errors.join("; ")).toMatch(error);
  });

  it("marks words whose value is only known when they run", () => {
    const [cmd] = parseShell("$X a* 'b*' \"$Y\" c").commands;
    expect(cmd.words.map((w) => [w.expands, w.globs])).toEqual([
      [true, false],
      [false, true],
      [false, false],
      [true, false],
      [false, false],
    ]);
    expect(parseShell("echo ${x@P}").substitutes).toBe(true);
  });

  it("never throws on hostile input and bounds nesting", () => {
    const deep = `${"$(".repeat(200)}x${")".repeat(200)}`;
    expect(() => parseShell(deep)).not.toThrow();
    for (const junk of ["${", "$((", "<<", "\\", "$'\\", "((((", "))))", "`", "{}}{", "$[", "<(", "\u0000"]) {
      expect(() => parseShell(junk)).not.toThrow();
    }
  });

  it("simpleCommands drops reserved words that only steer other commands", () => {
    expect(simpleCommands("if git status; then git diff; fi")).toEqual(["git status", "git diff"]);
    expect(simpleCommands("while true; do ls; done")).toEqual(["true", "ls"]);
  });
});
