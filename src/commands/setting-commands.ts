// Slash commands that change how the following turns run: approvals (`/yolo`), the model
// (`/model`) and its reasoning level (`/thinking`).
import { ConfigError } from "../config/errors.js";
import { resolveModel } from "../config/resolve.js";
import { thinkingCommand } from "./thinking-command.js";
import type { CommandHost, SlashCommand } from "./host.js";
import { modelListText } from "./model-list.js";

export const settingCommands = {
  yolo: {
    name: "/yolo",
    args: "[once]",
    description: "approve every tool call (of the next turn with once)",
    timing: "idle",
    run: async (host, args) => {
      if (args[0] === "once") {
        await host.session.send({ type: "yolo_once" });
        host.print("every tool call of the next turn is approved");
      } else if (args[0] === undefined) {
        await host.session.send({ type: "set_mode", mode: "yolo" });
        host.print("yolo: every tool call of this session is approved (deny rules still apply)");
      } else host.print("usage: /yolo [once]");
    },
  },
  model: {
    name: "/model",
    args: "[id]",
    description: "list the models (none given) or switch model, e.g. /model anthropic/claude-sonnet-4-5",
    timing: "idle",
    run: (host, args) => switchModel(host, args[0]),
  },
  thinking: {
    name: "/thinking",
    args: "[level]",
    description: "reasoning level: off, low, medium or high",
    timing: "idle",
    run: async (host, args) => {
      const out = await thinkingCommand(args[0], host.session, host.config, host.baseUrl);
      if (out.model) host.modelChanged?.(out.model);
      if (out.error) host.error(out.message);
      else host.print(out.message);
    },
  },
} satisfies Record<string, SlashCommand>;

async function switchModel(host: CommandHost, id: string | undefined): Promise<void> {
  if (!id && host.pickModel) return host.pickModel();
  if (!id) return host.print(modelListText(host.config, host.session.status().model.id));
  try {
    const { model, notices } = resolveModel({ ...host.config, model: id }, process.env, {
      baseUrl: host.baseUrl,
    });
    for (const notice of notices) host.print(`notice: ${notice}`);
    await host.session.send({ type: "set_model", model });
    host.modelChanged?.(model);
    host.print(`model: ${model.id}`);
  } catch (err) {
    if (err instanceof ConfigError) host.error(err.message);
    else throw err;
  }
}
