// The errors opening a session may throw, each a class a front end can test for with
// `instanceof` and print as one line: the config or a flag is wrong, the named session does not
// exist, another tern holds its record, or `sandbox.mode` asks for a sandbox this machine lacks.
// Two are the engine's own; the other two belong to the rooms that find them (config, record).
export { ConfigError } from "../../config/errors.js";
export { SessionLockedError } from "../../record/lock.js";

export class SessionNotFoundError extends Error {
  override name = "SessionNotFoundError";
}

export class SandboxUnavailableError extends Error {
  override name = "SandboxUnavailableError";
}
