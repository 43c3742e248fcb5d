// `tern config check`: validate the merged configuration and show where each value came from.
import { formatConfigCheck } from "../config/check.js";
import { sandboxAvailability } from "../engine/sandbox.js";
import { loadSettings, ternHome } from "./setup.js";

export async function configCheckCommand(opts: { config?: string; model?: string }): Promise<number> {
  const loaded = loadSettings({ config: opts.config, model: opts.model }, ternHome(), process.cwd());
  process.stdout.write(formatConfigCheck(loaded, process.env));
  process.stdout.write(`sandbox: ${sandboxAvailability()}\n`);
  return 0;
}
