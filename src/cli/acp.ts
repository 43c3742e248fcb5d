// `tern acp`: starts the ACP front end (src/acp) with the flags as defaults for every session.
import { ConfigError } from "../config/errors.js";
import { parseMode } from "../config/flags.js";
import { ternHome } from "./setup.js";
import type { AcpOptions } from "./options.js";
import { UsageError } from "./usage-error.js";

export async function acpCommand(opts: AcpOptions, version: string): Promise<number> {
  let mode: ReturnType<typeof parseMode> | undefined;
  try {
    mode = opts.mode !== undefined ? parseMode(opts.mode) : undefined;
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
  const { runAcpAgent } = await import("../acp/main.js");
  return runAcpAgent({
    version,
    home: ternHome(),
    defaults: { model: opts.model, baseUrl: opts.baseUrl, system: opts.system, allow: opts.allow, mode },
  });
}
