// Switches a request can carry that config, engine, front ends and adapters all name the same way.

/** How hard a reasoning model thinks (R-PROV-10); `off` sends nothing. */
export type ThinkingLevel = "off" | "low" | "medium" | "high";

/** Tools the provider runs itself (R-PROV-11); tern only switches them on. */
export type HostedTool = "web_search";
