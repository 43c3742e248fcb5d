// R-CFG-3: the terminal is one of the places tern writes, so stdout and stderr pass every string
// through the by-value redaction too (--json events, progress, errors, the interactive UI).
import { redactSecrets } from "../config/secrets.js";

type Write = typeof process.stdout.write;

function redacting(stream: NodeJS.WriteStream): void {
  const original = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    original(typeof chunk === "string" ? redactSecrets(chunk) : chunk, ...rest)) as Write;
}

let installed = false;

export function redactTerminalOutput(): void {
  if (installed) return;
  installed = true;
  redacting(process.stdout);
  redacting(process.stderr);
}
