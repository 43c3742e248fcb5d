// The parsed options each command receives: apart from the parser, so the commands it loads
// can name them without importing it back.
export interface CommonOptions {
  model?: string;
  baseUrl?: string;
  config?: string;
  continue?: boolean;
  /** `true`: `--resume` without an id (the interactive UI picks one; elsewhere a usage error). */
  resume?: string | true;
  system?: string;
  yes?: boolean;
  allow?: string[];
  maxModelCalls?: string;
  maxToolCalls?: string;
  maxDuration?: string;
  maxBudgetUsd?: string;
  /** `--sandbox <mode>`: off | read-only | workspace-write (checked with the config, one-line error). */
  sandbox?: string;
  /** `--thinking <level>`: off | low | medium | high (R-PROV-10). */
  thinking?: string;
  /** `--mode ask|auto-edit|yolo|plan`: the permission mode (R-PLAN-1), checked with the config. */
  mode?: string;
  /** `tern --plain`: the line mode instead of the Ink UI. */
  plain?: boolean;
  /** `--worktree [name]` (R-WT-1): `true` when no name was given (one is generated). */
  worktree?: string | true;
  /** `--plugin-dir DIR`, repeatable: Claude Code plugin folders (R-WF-6). */
  pluginDir?: string[];
}

export interface RunOptions extends CommonOptions {
  json?: boolean;
  image?: string[];
  compact?: boolean;
  /** `--output-schema <file>` (R-AUTO-1). */
  outputSchema?: string;
  /** `--input-format text|jsonl` (R-AUTO-2). */
  inputFormat?: string;
}

export interface AcpOptions {
  model?: string;
  baseUrl?: string;
  system?: string;
  allow?: string[];
  /** `--mode`: every new session's permission mode (R-CLI-5: the client may switch it). */
  mode?: string;
}
