// Turns the merged config plus the environment into one callable model (R-CFG-3, R-CFG-4,
// R-PROV-0, §10). Keys are read only from the variable named by `apiKeyEnv` and never appear
// in a message.
import { CATALOGUE, catalogueAlias, DEFAULT_MODEL_BY_PROVIDER, modelInfo } from "./catalogue.js";
import { AUTO_PROVIDER_ORDER, BASE_URL_ENV, BUILTIN_PROVIDERS } from "./defaults.js";
import { cloudEndpoint } from "./cloud-providers.js";
import { ConfigError } from "./errors.js";
import { MODEL_ID_RE } from "./value-rules.js";
import type { Config, ProviderApi, ProviderConfig, ResolvedModel } from "./types.js";

const VERSION_SEGMENT = /^v\d+[a-z0-9]*$/i;

/**
 * R-PROV-0: the base URL carries the version path. Adds `/v1` when no path segment is a
 * version (`v1`, `v4`, `v1beta`), never doubles it, strips trailing slashes.
 * Throws ConfigError naming `label` when the URL is not http(s).
 */
export function normalizeBaseUrl(raw: string, label = "base URL"): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${label}: not a valid URL (expected e.g. http://localhost:8080/v1)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`${label}: must be an http:// or https:// URL`);
  }
  const segments = url.pathname.split("/").filter((s) => s.length > 0);
  if (!segments.some((s) => VERSION_SEGMENT.test(s))) segments.push("v1");
  url.pathname = `/${segments.join("/")}`;
  url.hash = "";
  return url.toString().replace(/\/+$/, "");
}

/** `<ID>_API_KEY`, upper-cased, non-alphanumerics → `_` (an ad-hoc provider's key variable). */
export function adHocKeyEnv(providerId: string): string {
  return `${providerId.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`;
}

const present = (env: NodeJS.ProcessEnv, name: string | undefined): string | undefined => {
  const v = name ? env[name] : undefined;
  return v !== undefined && v !== "" ? v : undefined;
};

function pickDefaultModel(config: Config, env: NodeJS.ProcessEnv): { id: string; notice: string } {
  for (const id of AUTO_PROVIDER_ORDER) {
    const keyEnv = config.providers[id]?.apiKeyEnv;
    const model = DEFAULT_MODEL_BY_PROVIDER[id];
    if (model && present(env, keyEnv)) {
      return { id: model, notice: `no model configured; using ${model} because ${keyEnv} is set` };
    }
  }
  throw new ConfigError(
    "no model configured and no API key found: export ANTHROPIC_API_KEY or OPENAI_API_KEY " +
      '(or set "model" in config.json / pass --model <provider>/<model>), or point at a local server ' +
      "with --base-url http://localhost:8080/v1 --model local/<model>",
  );
}

export function resolveModel(
  config: Config,
  env: NodeJS.ProcessEnv,
  opts: { baseUrl?: string } = {},
): { model: ResolvedModel; notices: string[] } {
  const notices: string[] = [];
  let id = config.model;
  if (id === undefined) {
    if (opts.baseUrl !== undefined) {
      throw new ConfigError(
        "--base-url needs a model: pass --model <provider>/<model>, e.g. --model local/qwen3",
      );
    }
    const picked = pickDefaultModel(config, env);
    id = picked.id;
    notices.push(picked.notice);
  }
  if (!MODEL_ID_RE.test(id)) {
    throw new ConfigError(
      `model "${id}" is not "<provider>/<model>": pass e.g. --model anthropic/claude-sonnet-4-5 or --model openai/gpt-5`,
    );
  }
  const slash = id.indexOf("/");
  const providerId = id.slice(0, slash);
  const name = id.slice(slash + 1);

  let provider: ProviderConfig | undefined = config.providers[providerId];
  let keyEnv = provider?.apiKeyEnv;
  let keyRequired = keyEnv !== undefined;
  let baseUrl: string;
  const cloud = provider ? cloudEndpoint(providerId, name, provider, env, opts.baseUrl) : undefined;
  if (cloud) {
    baseUrl = cloud.baseUrl;
    keyRequired = false;
  } else if (!provider) {
    if (opts.baseUrl === undefined) {
      const known = Object.keys(config.providers).sort().join(", ");
      throw new ConfigError(
        `unknown provider "${providerId}" in model "${id}": use one of ${known}, add providers.${providerId} ` +
          "to config.json, or pass --base-url <url> for an OpenAI-compatible server",
      );
    }
    provider = { api: "openai-chat", baseUrl: opts.baseUrl, headers: {} };
    keyEnv = adHocKeyEnv(providerId);
    keyRequired = false;
    baseUrl = normalizeBaseUrl(opts.baseUrl, "--base-url");
  } else if (opts.baseUrl !== undefined) {
    baseUrl = normalizeBaseUrl(opts.baseUrl, "--base-url");
    // Pointed elsewhere (usually a local server): a missing key is no longer an error.
    keyRequired = false;
  } else {
    const envName = BASE_URL_ENV[providerId];
    const fromEnv = envName ? present(env, envName) : undefined;
    // The environment moves a built-in provider only while config left its base URL alone.
    if (fromEnv && provider.baseUrl === BUILTIN_PROVIDERS[providerId]?.baseUrl) {
      baseUrl = normalizeBaseUrl(fromEnv, envName);
    } else {
      baseUrl = normalizeBaseUrl(provider.baseUrl, `providers.${providerId}.baseUrl`);
    }
  }

  const apiKey = cloud ? cloud.apiKey : present(env, keyEnv);
  if (apiKey === undefined && keyRequired) {
    throw new ConfigError(
      `${keyEnv} is not set: export it, or use --base-url <url> with --model <provider>/<model> for a local server`,
    );
  }
  const { info, notice } = modelInfo(id, config.models[id], catalogueAlias(providerId, name));
  if (notice) notices.push(notice);
  const endpoint: ResolvedModel["endpoint"] = {
    api: config.models[id]?.api ?? cloud?.api ?? pickApi(providerId, provider, info.api),
    baseUrl,
    headers: { ...provider.headers },
  };
  if (apiKey !== undefined) endpoint.apiKey = apiKey;
  if (cloud?.auth) endpoint.auth = cloud.auth;
  if (cloud?.vertexAnthropic) endpoint.vertexAnthropic = true;
  // DeepSeek's thinking mode refuses a tool continuation without the reasoning echoed (R-PROV-3).
  const compat = {
    ...(providerId === "deepseek" ? { echoReasoning: true } : {}),
    ...(info.reasoning ? { reasoningEffort: true } : {}),
    // A model known not to reason refuses the request for encrypted reasoning (R-PROV-9).
    ...(endpoint.api === "openai-responses" && !info.reasoning && (CATALOGUE[id] || info.reasoning === false)
      ? { encryptedReasoning: false }
      : {}),
    ...config.models[id]?.compat,
  };
  if (Object.keys(compat).length > 0) endpoint.compat = compat;
  // R-PROV-10: --thinking / /thinking, else the model's setting, else the catalogue's default.
  const thinking = config.thinking ?? info.thinking ?? (info.reasoning ? "medium" : "off");
  const hostedTools = [...(info.hostedTools ?? [])];
  return { model: { id, providerId, name, endpoint, info, thinking, hostedTools }, notices };
}

/**
 * R-PROV-9, after the model entry's `api` (config) and a cloud's (the caller's): a provider whose
 * `api` config changed from the built-in one; then the catalogue's protocol for the model
 * (built-in providers only); then the provider's.
 */
function pickApi(
  providerId: string,
  provider: ProviderConfig,
  catalogued: ProviderApi | undefined,
): ProviderApi {
  const builtin = BUILTIN_PROVIDERS[providerId];
  if (catalogued && builtin && provider.api === builtin.api) return catalogued;
  return provider.api;
}
