// Where the cloud providers' requests go and how they authenticate (R-PROV-12..15): Gemini API
// (`google`), Vertex AI (`vertex`), Amazon Bedrock (`bedrock`) and Azure OpenAI (`azure`). Each
// reads its vendor's standard environment variables; `--base-url` and a changed
// `providers.<id>.baseUrl` win over them. Keys stay in the endpoint and never enter a message.
import { BUILTIN_PROVIDERS } from "./defaults.js";
import { ConfigError } from "./errors.js";
import type { ProviderApi, ProviderConfig, ResolvedModel } from "./types.js";

type Endpoint = ResolvedModel["endpoint"];

export interface CloudEndpoint {
  baseUrl: string;
  apiKey?: string;
  auth?: Endpoint["auth"];
  /** The protocol when the model decides it (Vertex: Claude or Gemini). */
  api?: ProviderApi;
  vertexAnthropic?: boolean;
}

export const CLOUD_PROVIDER_IDS = ["google", "vertex", "bedrock", "azure"] as const;

const present = (env: NodeJS.ProcessEnv, ...names: string[]): string | undefined => {
  for (const name of names) if (env[name]) return env[name];
  return undefined;
};

/** The cloud endpoint of a built-in cloud provider, or undefined for any other provider. */
export function cloudEndpoint(
  providerId: string,
  model: string,
  provider: ProviderConfig,
  env: NodeJS.ProcessEnv,
  baseUrlFlag: string | undefined,
): CloudEndpoint | undefined {
  const builtin = BUILTIN_PROVIDERS[providerId];
  if (!builtin || !(CLOUD_PROVIDER_IDS as readonly string[]).includes(providerId)) return undefined;
  // A base URL the user set: --base-url first, then a providers.<id>.baseUrl changed from the default.
  const configured =
    baseUrlFlag !== undefined
      ? checkedUrl(baseUrlFlag, "--base-url")
      : provider.baseUrl !== builtin.baseUrl
        ? checkedUrl(provider.baseUrl, `providers.${providerId}.baseUrl`)
        : undefined;
  if (providerId === "google") return google(env, configured);
  if (providerId === "vertex") return vertex(model, env, configured);
  if (providerId === "bedrock") return bedrock(env, configured);
  return azure(env, configured);
}

function google(env: NodeJS.ProcessEnv, configured: string | undefined): CloudEndpoint {
  const apiKey = present(env, "GEMINI_API_KEY", "GOOGLE_API_KEY");
  if (!apiKey)
    throw new ConfigError("GEMINI_API_KEY is not set: export it (or GOOGLE_API_KEY) for google/<model>");
  const fromEnv = env.GOOGLE_GEMINI_BASE_URL
    ? checkedUrl(env.GOOGLE_GEMINI_BASE_URL, "GOOGLE_GEMINI_BASE_URL")
    : undefined;
  const root = configured ?? fromEnv ?? BUILTIN_PROVIDERS.google.baseUrl;
  // The Gemini SDKs add the API version to a bare host; so does tern.
  const baseUrl = /\/v\d+[a-z0-9]*(?:\/|$)/i.test(new URL(root).pathname) ? root : `${root}/v1beta`;
  return { baseUrl, apiKey, auth: { kind: "key-header", header: "x-goog-api-key" } };
}

function vertex(model: string, env: NodeJS.ProcessEnv, configured: string | undefined): CloudEndpoint {
  const project = present(env, "GOOGLE_CLOUD_PROJECT", "ANTHROPIC_VERTEX_PROJECT_ID", "GCLOUD_PROJECT");
  if (!project) {
    throw new ConfigError(
      "vertex/<model> needs a Google Cloud project: export GOOGLE_CLOUD_PROJECT (or ANTHROPIC_VERTEX_PROJECT_ID)",
    );
  }
  const region = present(env, "GOOGLE_CLOUD_LOCATION", "CLOUD_ML_REGION") ?? "global";
  const host =
    region === "global" ? "https://aiplatform.googleapis.com" : `https://${region}-aiplatform.googleapis.com`;
  const root = (configured ?? host).replace(/\/v1$/, "");
  const claude = /^claude-/.test(model);
  const publisher = claude ? "anthropic" : "google";
  return {
    baseUrl: `${root}/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(region)}/publishers/${publisher}`,
    auth: { kind: "google-adc" },
    api: claude ? "anthropic-messages" : "google-gemini",
    ...(claude ? { vertexAnthropic: true } : {}),
  };
}

function bedrock(env: NodeJS.ProcessEnv, configured: string | undefined): CloudEndpoint {
  const region = present(env, "AWS_REGION", "AWS_DEFAULT_REGION");
  if (!region)
    throw new ConfigError("bedrock/<model> needs an AWS region: export AWS_REGION (e.g. us-east-1)");
  const fromEnv = present(env, "AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "AWS_ENDPOINT_URL");
  const baseUrl =
    configured ??
    (fromEnv
      ? checkedUrl(fromEnv, "AWS_ENDPOINT_URL_BEDROCK_RUNTIME")
      : `https://bedrock-runtime.${region}.amazonaws.com`);
  // A Bedrock API key replaces SigV4 (sent as a Bearer token).
  const apiKey = present(env, "AWS_BEARER_TOKEN_BEDROCK");
  return apiKey ? { baseUrl, apiKey } : { baseUrl, auth: { kind: "aws-sigv4", region } };
}

function azure(env: NodeJS.ProcessEnv, configured: string | undefined): CloudEndpoint {
  const apiKey = present(env, "AZURE_OPENAI_API_KEY");
  if (!apiKey) throw new ConfigError("AZURE_OPENAI_API_KEY is not set: export it for azure/<deployment>");
  let baseUrl = configured;
  if (!baseUrl) {
    const endpoint = present(env, "AZURE_OPENAI_ENDPOINT");
    if (!endpoint) {
      throw new ConfigError(
        "azure/<deployment> needs AZURE_OPENAI_ENDPOINT (e.g. https://my-resource.openai.azure.com)",
      );
    }
    baseUrl = `${checkedUrl(endpoint, "AZURE_OPENAI_ENDPOINT").replace(/\/openai(?:\/v1)?$/, "")}/openai/v1`;
  }
  return { baseUrl, apiKey, auth: { kind: "key-header", header: "api-key" } };
}

function checkedUrl(raw: string, label: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${label}: not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ConfigError(`${label}: must be an http:// or https:// URL`);
  url.hash = "";
  return url.toString().replace(/\/+$/, "");
}
