// Hook scripts as Claude Code users write them (node reading the JSON on stdin), for the hook
// tests: each saves every payload it got beside itself, one JSON line per run, for the test to read.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** `node <dir>/<name>.cjs`: logs its input, then runs `body` (with `input` and `fs` in scope). */
export function hookScript(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.cjs`);
  writeFileSync(
    file,
    `const fs = require("node:fs");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
fs.appendFileSync(${JSON.stringify(join(dir, `${name}.log`))}, JSON.stringify(input) + "\\n");
${body}`,
  );
  return `node ${file}`;
}

/** Every payload the script `name` got so far, oldest first (a line still being written is not one yet). */
export function hookPayloads(dir: string, name: string): any[] {
  const file = join(dir, `${name}.log`);
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n");
  return lines.slice(0, -1).map((l) => JSON.parse(l));
}
