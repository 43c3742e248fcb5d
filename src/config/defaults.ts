// Every built-in default of SPEC §2 lives here and nowhere else.
import type { Config, ProviderConfig } from "./types.js";

export const BUILTIN_PROVIDERS: Readonly<Record<string, ProviderConfig>> = {
  openai: {
    api: "openai-chat",
    baseUrl: "https://api.openai.com/v1",
    apiKeyEnv: "OPENAI_API_KEY",
    headers: {},
  },
  anthropic: {
    api: "anthropic-messages",
    baseUrl: "https://api.anthropic.com/v1",
    apiKeyEnv: "ANTHROPIC_API_KEY",
    headers: {},
  },
  openrouter: {
    api: "openai-chat",
    baseUrl: "https://openrouter.ai/api/v1",
    apiKeyEnv: "OPENROUTER_API_KEY",
    headers: {},
  },
  deepseek: {
    api: "openai-chat",
    baseUrl: "https://api.deepseek.com/v1",
    apiKeyEnv: "DEEPSEEK_API_KEY",
    headers: {},
  },
  groq: {
    api: "openai-chat",
    baseUrl: "https://api.groq.com/openai/v1",
    apiKeyEnv: "GROQ_API_KEY",
    headers: {},
  },
  ollama: { api: "openai-chat", baseUrl: "http://localhost:11434/v1", headers: {} },
  // Cloud providers (R-PROV-12..15): where their requests go is read from the vendor's own
  // variables at resolve time (cloud-providers.ts); these base URLs are the defaults it starts from.
  google: {
    api: "google-gemini",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    apiKeyEnv: "GEMINI_API_KEY",
    headers: {},
  },
  vertex: { api: "google-gemini", baseUrl: "https://aiplatform.googleapis.com/v1", headers: {} },
  bedrock: {
    api: "bedrock-converse",
    baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com",
    apiKeyEnv: "AWS_BEARER_TOKEN_BEDROCK",
    headers: {},
  },
  azure: {
    api: "openai-chat",
    baseUrl: "https://resource.openai.azure.com/openai/v1",
    apiKeyEnv: "AZURE_OPENAI_API_KEY",
    headers: {},
  },
};

/** Environment variables that move a built-in provider's base URL (R-PROV-0). */
export const BASE_URL_ENV: Readonly<Record<string, string>> = {
  openai: "OPENAI_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
};

/** R-CFG-4: which provider's key wins when no model is configured (Anthropic first). */
export const AUTO_PROVIDER_ORDER = [
  "anthropic",
  "openai",
  "openrouter",
  "deepseek",
  "groq",
  "google",
] as const;

/** Assumed for a model the catalogue does not know (R-CFG-4, §10); no pricing = unknown cost. */
export const UNKNOWN_MODEL_INFO = { contextWindow: 128000, maxOutputTokens: 8192, images: false } as const;

/** How long an edit waits for its file's diagnostics (R-LSP-2); measured figures in src/lsp/README.md. */
export const DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS = 8000;

export const MAX_TIMER_SECONDS = 2147483;

export function defaultConfig(): Config {
  return {
    providers: structuredClone(BUILTIN_PROVIDERS) as Record<string, ProviderConfig>,
    models: {},
    retry: { maxRetries: 5, baseDelaySeconds: 2, factor: 2, jitter: 0.25, maxDelaySeconds: 30 },
    streamIdleTimeoutSeconds: 300,
    executionBudget: defaultExecutionBudget(),
    bashTimeoutSeconds: 600,
    toolSets: [],
    autoCompactThreshold: 0.8,
    maxTruncationContinues: 0,
    idleNotificationSeconds: 60,
    trustedWorkspaces: [],
    parallelTools: true,
    compat: { claude: true, agents: true },
    agents: { maxParallel: 4, executionBudget: { ...defaultExecutionBudget(), maximumModelCalls: 100 } },
    toolOutputLimit: 30_000,
    jobs: { logMaxBytes: 8 * 1024 * 1024, sessionLogMaxBytes: 64 * 1024 * 1024 },
    mcpToolSearchThreshold: 30,
    shellEnv: { exclude: [], include: [] },
    permissions: { mode: "ask", allow: [], deny: [] },
    checkpoints: { enabled: true, maxFiles: 200_000 },
    sandbox: { mode: "off", network: false, writableRoots: [] },
  };
}

export function defaultExecutionBudget(): Config["executionBudget"] {
  return { maximumModelCalls: 1024, maximumToolCalls: 8192, maximumDurationSeconds: 604800 };
}

export const DEFAULT_TOOL_SET_TIMEOUT_SECONDS = 120;
