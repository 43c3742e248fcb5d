// The face of config/file/: a config file's parser and its schema (zod/mini) load only where a
// file exists (`prepareConfigLoad` in load.ts); a run with flags only never compiles them.
import { onFirstUse } from "../on-first-use.js";

export const configFileParser = onFirstUse(
  () => import("./parse-layer.js"),
  "the config file parser (prepareConfigLoad)",
);
