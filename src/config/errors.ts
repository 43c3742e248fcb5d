// A configuration problem the user must fix. The message is the whole story in one line
// (R-CFG-1): the CLI prints it as is and exits 2. It never contains a key's value (R-CFG-3).
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export function isConfigError(value: unknown): value is ConfigError {
  return value instanceof ConfigError;
}
