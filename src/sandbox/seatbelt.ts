// macOS: the command runs under `sandbox-exec` with a Seatbelt profile equivalent to the Linux
// binds: read everything, write only the writable folders minus the protected ones, and no
// network unless allowed. Written and unit-tested for its text; not run on Linux machines.
import type { SandboxPolicy } from "./policy.js";

/** A Seatbelt string literal: backslashes and quotes escaped. */
function literal(path: string): string {
  return `"${path.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export function seatbeltProfile(policy: SandboxPolicy): string {
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec)",
    "(allow process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    "(allow file-read*)",
    // Terminals and /dev/null must stay writable for ordinary commands.
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
  ];
  if (policy.writable.length > 0)
    lines.push(`(allow file-write* ${policy.writable.map((p) => `(subpath ${literal(p)})`).join(" ")})`);
  if (policy.readOnly.length > 0)
    lines.push(`(deny file-write* ${policy.readOnly.map((p) => `(subpath ${literal(p)})`).join(" ")})`);
  if (policy.hidden.length > 0)
    lines.push(
      `(deny file-read* file-write* ${policy.hidden.map((p) => `(subpath ${literal(p)})`).join(" ")})`,
    );
  // Without network, nothing is allowed: not even name lookups, which would leak data through DNS.
  if (policy.network) lines.push("(allow network*)");
  return `${lines.join("\n")}\n`;
}

export function seatbeltArgs(policy: SandboxPolicy, command: readonly string[]): string[] {
  return ["-p", seatbeltProfile(policy), ...command];
}
