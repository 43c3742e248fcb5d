// task: hands a sub-task to a sub-agent (R-AGENT-1), a child session with its own context whose
// final answer is this call's result. What it runs is the session's business (engine/subagents/):
// the tool only checks its arguments. The session appends the agents to the description.
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { fail } from "../results.js";
import type { Tool } from "../types.js";

const schema = lazySchema(() =>
  z.object({
    description: z.string().check(z.minLength(1), z.describe("3-5 words")),
    prompt: z.string().check(z.minLength(1)),
    agent: z.optional(z.string()),
    isolation: z.optional(z.enum(["worktree"]).check(z.describe("Changes come back as a branch"))),
  }),
);
export type TaskArgs = z.infer<ReturnType<typeof schema>>;

export const taskTool: Tool<TaskArgs> = {
  name: "task",
  description: "A sub-agent does prompt in a fresh context and answers; a batch's calls run in parallel.",
  get schema() {
    return schema();
  },
  // It changes nothing itself: what the child does is judged call by call (R-AGENT-1).
  kind: "read",
  paths: () => [],
  present: (args) => ({
    title: `${typeof args.agent === "string" ? args.agent : "agent"}: ${typeof args.description === "string" ? args.description : ""}`,
    kind: "think",
    locations: [],
  }),
  async run(args, ctx) {
    if (!ctx.runTask) return fail("task: this session cannot start sub-agents");
    return ctx.runTask(args, ctx.callId ?? "");
  },
};
