// Whether this machine can make the sandbox the config asks for: a sandbox asked for and missing
// is a configuration error (exit 2), never a silent fallback to running unsandboxed (R-SBX).
import { sandboxMechanism } from "./mechanism.js";

/** A sandbox was asked for and this machine cannot provide one: a configuration error, exit 2. */
export class SandboxUnavailableError extends Error {
  override name = "SandboxUnavailableError";
}

/** For `tern config check`: whether the mechanism works here, in one line. */
export function sandboxAvailability(): string {
  const m = sandboxMechanism();
  return m.available ? `available (${m.name}, ${m.path})` : `not available: ${m.why}`;
}

/** Throws SandboxUnavailableError when `sandbox.mode` asks for a sandbox this machine cannot make. */
export function requireSandbox(mode: string): void {
  if (mode === "off") return;
  const m = sandboxMechanism();
  if (!m.available) throw new SandboxUnavailableError(`sandbox.mode ${mode}: ${m.why}`);
}
