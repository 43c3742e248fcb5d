// `/model` with no argument (R-UI-24): the models to pick from — the configured ones, then the
// catalogue's grouped by provider — with the current one marked, so a person need not guess ids.
import { CATALOGUE } from "../config/catalogue.js";
import type { Config } from "../config/types.js";

export function modelListText(config: Config, current: string): string {
  const mark = (id: string) => (id === current ? `● ${id}` : id);
  const configured = [...new Set([current, config.model, ...Object.keys(config.models ?? {})])].filter(
    (id): id is string => typeof id === "string" && id !== "",
  );
  const byProvider = new Map<string, string[]>();
  for (const id of Object.keys(CATALOGUE)) {
    const provider = id.slice(0, id.indexOf("/"));
    byProvider.set(provider, [...(byProvider.get(provider) ?? []), id]);
  }
  return [
    `current model: ${current}`,
    `configured: ${configured.map(mark).join(" · ")}`,
    "catalogue:",
    ...[...byProvider.values()].map((ids) => `  ${ids.map(mark).join(" · ")}`),
    "switch with /model <provider/model>",
  ].join("\n");
}
