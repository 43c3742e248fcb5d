// The OS sandbox around `bash` for one session (R-SBX): the policy from the config, the
// mechanism of this machine, and the way a front end may let a failed command out.
import type { Config } from "../config/types.js";
import { sandboxedCommand, sandboxMechanism } from "../sandbox/mechanism.js";
import { sandboxPolicy } from "../sandbox/policy.js";
import type { PendingCall } from "../tools/executor.js";
import type { ShellSandbox } from "../tools/types.js";
import type { SessionHooks } from "./core.js";

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
export function requireSandbox(config: Config): void {
  if (config.sandbox.mode === "off") return;
  const m = sandboxMechanism();
  if (!m.available) throw new SandboxUnavailableError(`sandbox.mode ${config.sandbox.mode}: ${m.why}`);
}

export function shellSandbox(
  config: Config,
  cwd: string,
  home: string,
  hooks: SessionHooks,
): ShellSandbox | undefined {
  const policy = sandboxPolicy(config.sandbox, cwd, home);
  // No sandbox asked for: no probe either (it spawns bwrap once, which a plain run need not pay).
  if (!policy) return undefined;
  const mechanism = sandboxMechanism();
  if (!mechanism.available) return undefined;
  const sandbox: ShellSandbox = { policy, wrap: (command) => sandboxedCommand(mechanism, policy, command) };
  if (hooks.offersOutsideSandbox) {
    let asked = 0;
    sandbox.approveOutside = async (command) => {
      const id = `outside-sandbox-${++asked}`;
      const args = { command };
      const pending: PendingCall = {
        call: { id, name: "bash", arguments: JSON.stringify(args) },
        id,
        name: "bash",
        arguments: JSON.stringify(args),
        args,
        kind: "shell",
        paths: [],
        reason: "it failed inside the sandbox: run it again OUTSIDE the sandbox, unrestricted?",
        presentation: {
          title: command,
          kind: "execute",
          locations: [],
          preview: { type: "command", command },
        },
      };
      const answer = (await hooks.approve([pending])).get(id);
      return answer === "approved" || answer === "always";
    };
  }
  return sandbox;
}
