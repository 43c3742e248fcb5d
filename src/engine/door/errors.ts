// The errors opening a session may throw, each a class a front end can test for with
// `instanceof` and print as one line: the config or a flag is wrong, the named session does not
// exist, another tern holds its record, or `sandbox.mode` asks for a sandbox this machine lacks.
// One is the engine's own; the others belong to the rooms that find them (config, record, sandbox).
export { ConfigError } from "../../config/errors.js";
export { SessionLockedError } from "../../record/lock.js";
export { SandboxUnavailableError } from "../../sandbox/availability.js";

export class SessionNotFoundError extends Error {
  override name = "SessionNotFoundError";
}
