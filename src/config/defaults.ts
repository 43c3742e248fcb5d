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
};

/** Environment variables that move a built-in provider's base URL (R-PROV-0). */
export const BASE_URL_ENV: Readonly<Record<string, string>> = {
  openai: "OPENAI_BASE_URL",
  anthropic: "ANTHROPIC_BASE_URL",
};

/** R-CFG-4: which provider's key wins when no model is configured (Anthropic first). */
export const AUTO_PROVIDER_ORDER = ["anthropic", "openai", "openrouter", "deepseek", "groq"] as const;

/** Assumed for a model the catalogue does not know (R-CFG-4, §10); no pricing = unknown cost. */
export const UNKNOWN_MODEL_INFO = { contextWindow: 128000, maxOutputTokens: 8192, images: false } as const;

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
