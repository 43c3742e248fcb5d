// The config folder's public surface.
export { CATALOGUE, DEFAULT_MODEL_BY_PROVIDER, modelInfo } from "./catalogue.js";
export { formatConfigCheck } from "./check.js";
export { BUILTIN_PROVIDERS, defaultConfig } from "./defaults.js";
export { ConfigError, isConfigError } from "./errors.js";
export { type ConfigFlags, flagsToConfig } from "./flags.js";
export { type LoadConfigOptions, type LoadedConfig, loadConfig } from "./load.js";
export { addCost, addUsage, billedInput, computeCost, emptyUsage } from "./pricing.js";
export { adHocKeyEnv, normalizeBaseUrl, resolveModel } from "./resolve.js";
export { type ConfigLayer, parseConfigText } from "./schema.js";
export type * from "./types.js";
