// Text that other programs turn into a command line, for deny rules (bash-deny.ts): when a
// line pipes into a shell, what `printf '\x72m …'` or `base64 -d` would print; and the string
// literals of a one-line script (`python3 -c 'os.system("rm -rf /")'`, `awk 'BEGIN{system(…)}'`).
import { SCRIPT_RUNNERS } from "./bash-deny-programs.js";
import { readAnsiC } from "../shell/shell-ansi-c.js";

/** What `printf`/`echo -e` and `base64 -d` would make of an argument, when that differs from it. */
export function decodedForms(value: string): string[] {
  const out: string[] = [];
  if (value.includes("\\")) out.push(readAnsiC(`${value.replace(/'/g, "\\'")}'`, 0).text);
  if (/^[A-Za-z0-9+/_-]{8,}={0,2}$/.test(value)) {
    const text = Buffer.from(value, "base64").toString("utf8");
    // Only text that could be a command line; most such words are not base64 at all.
    if (/^[\x20-\x7e\t\n]+$/.test(text)) out.push(text);
  }
  return out.filter((t) => t !== value);
}

/** The string literals inside an interpreter's code arguments (none for other programs). */
export function scriptStrings(program: string, args: string[]): string[] {
  if (!SCRIPT_RUNNERS.has(program.replace(/[0-9.]+$/, "")) && !SCRIPT_RUNNERS.has(program)) return [];
  const out: string[] = [];
  for (const code of args)
    for (const m of code.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`]*)`/g))
      out.push(m[1] ?? m[2] ?? m[3]);
  // `exec "rm", "-rf", "/"` spells one command in several literals.
  if (out.length > 1) out.push(out.join(" "));
  return out.filter((s) => /\s/.test(s));
}
