// Where tern keeps sessions, ledger, config and checkpoints: `$TERN_HOME`, else `~/.tern` (§1).
import { homedir } from "node:os";
import { join } from "node:path";

export function ternHomeOf(env: NodeJS.ProcessEnv = process.env): string {
  return env.TERN_HOME || join(homedir(), ".tern");
}
