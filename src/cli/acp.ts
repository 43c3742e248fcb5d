// `tern acp`: starts the ACP front end (src/acp) with the flags as defaults for every session.
import { ternHome } from "./setup.js";
import type { AcpOptions } from "./options.js";

export async function acpCommand(opts: AcpOptions, version: string): Promise<number> {
  const { runAcpAgent } = await import("../acp/main.js");
  return runAcpAgent({
    version,
    home: ternHome(),
    defaults: { model: opts.model, baseUrl: opts.baseUrl, system: opts.system, allow: opts.allow },
  });
}
