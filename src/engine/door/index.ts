// The door in one import: every word a front end may name (README.md says which file holds what).
export * from "./errors.js";
export type * from "./commands.js";
export type * from "./events.js";
export type * from "./requests.js";
export type * from "./outcome.js";
export type * from "./side.js";
export type * from "./session-door.js";
