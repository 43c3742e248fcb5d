// Slash commands that only report: they read the session's queries and print, busy or not.
import { approveProjectServers, projectServerLines, projectServers } from "../workspace/project-servers.js";
import { exportCommand } from "./export-command.js";
import { renderTodos } from "../engine/session.js";
import { errorText, type SlashCommand } from "./host.js";
import { historyList, historyTurn } from "./history.js";
import { costReport, jobsText, statsText, statusText } from "./reports.js";
import { agentsText } from "./agents-report.js";
import { agentsForCheck } from "../workspace/agents-check.js";

export const reportCommands = {
  status: {
    name: "/status",
    description: "session, model, context and cost",
    timing: "now",
    run: (host) => host.print(statusText(host)),
  },
  cost: {
    name: "/cost",
    description: "cost of this session so far",
    timing: "now",
    run: (host) => host.print(costReport(host)),
  },
  todos: {
    name: "/todos",
    description: "the todo list",
    timing: "now",
    run: (host) => {
      const todos = host.session.todos();
      host.print(todos.length === 0 ? "no todos" : renderTodos([...todos]));
    },
  },
  history: {
    name: "/history",
    args: "[N]",
    description: "the turns, or turn N whole",
    timing: "now",
    run: (host, args) => {
      if (!args[0]) return host.print(historyList(host.session.transcript()));
      const n = Number(args[0]);
      if (!Number.isInteger(n) || n <= 0) return host.print("usage: /history [N] (N a turn number)");
      host.print(historyTurn(host.session.transcript(), n));
    },
  },
  stats: {
    name: "/stats",
    description: "tool calls by tool",
    timing: "now",
    run: (host) => host.print(statsText(host.session.transcript())),
  },
  export: {
    name: "/export",
    args: "[md|json] [file]",
    description: "print this session's archive, or write it to a file",
    timing: "now",
    run: (host, args) => exportCommand(host, args),
  },
  jobs: {
    name: "/jobs",
    args: "[kill <id>]",
    description: "background jobs with their last lines; end one",
    timing: "now",
    run: async (host, args) => {
      if (args[0] === "kill" && args[1]) {
        try {
          await host.session.killJob(args[1]);
          host.print(`${args[1]} was stopped`);
        } catch (err) {
          host.error(errorText(err));
        }
        return;
      }
      if (args.length > 0) return host.print("usage: /jobs [kill <id>]");
      host.print(jobsText(host.session.jobs()));
    },
  },
  agents: {
    name: "/agents",
    description: "the sub-agents a task call may name, with their files",
    timing: "now",
    run: (host) =>
      host.pickAgents
        ? host.pickAgents()
        : host.print(
            agentsText(
              agentsForCheck({ cwd: host.cwd, home: host.home, config: host.config, env: process.env }),
            ),
          ),
  },
  mcp: {
    name: "/mcp",
    args: "[reconnect <name> | approve]",
    description: "MCP servers: state and tools; reconnect one; approve the project's .mcp.json",
    timing: "now",
    run: async (host, args) => {
      if (args[0] === "approve") {
        const names = approveProjectServers(host.home, host.cwd, host.config);
        if (names.length === 0) return host.print("no .mcp.json servers in this workspace");
        // R-WF-3: approved servers start in this session too; their tools join the next request.
        const started = await host.session.startToolSets(
          projectServers(host.home, host.cwd, host.config).toolSets,
        );
        return host.print(
          `approved for this workspace: ${names.join(", ")}${started.length > 0 ? `; starting now: ${started.join(", ")} (their tools join the next request)` : ""}`,
        );
      }
      const project = projectServerLines(projectServers(host.home, host.cwd, host.config));
      host.print([await host.session.mcp(args), ...(args.length === 0 ? project : [])].join("\n"));
      // R-UI-28: after the report, a front end with a picker offers the servers to reconnect.
      if (args.length === 0 && host.config.toolSets.length > 0) host.pickMcp?.();
    },
  },
} satisfies Record<string, SlashCommand>;
