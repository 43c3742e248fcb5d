// What the bash-faithful reader (shell-parse.ts) finds in a command line.

export interface ShellWord {
  /** After quote removal; expansions kept as written (`$HOME`, `${x}`, `$(…)`). */
  value: string;
  /** Holds an unquoted or double-quoted expansion (its value is not known before running). */
  expands: boolean;
  /** Holds an unquoted glob character (`*`, `?`, `[`). */
  globs: boolean;
  /** Indexes into `value` that came from unquoted text (brace expansion and splitting apply only there). */
  unquoted: boolean[];
}

export interface ShellRedirect {
  op: string;
  /** The target word; for a here-document, its body. */
  target: ShellWord;
  /** A here-document or here-string body (fed to the command's stdin). */
  body?: string;
}

export interface SimpleCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** Read from inside a substitution, not at the top level of the line. */
  nested: boolean;
}

export interface ShellParse {
  commands: SimpleCommand[];
  /** Holds a command, process or arithmetic substitution, or a `${…@P}` prompt expansion. */
  substitutes: boolean;
  /** Why the line could not be read faithfully; empty when it could. */
  errors: string[];
}
