// todo_write: replaces the session's todo list (R-TODO); the list outlives turns.
import * as z from "zod/mini";
import { lazySchema, saidInDescription } from "../lazy-schema.js";
import { ok } from "../results.js";
import { renderTodos } from "../todos-text.js";
import type { Tool } from "../types.js";

const schema = lazySchema(() =>
  z.object({
    todos: z
      .array(
        z.object({
          content: z.string().check(z.minLength(1)),
          status: z.enum(["pending", "in_progress", "completed"]),
        }),
      )
      .check(saidInDescription()),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export { renderTodos };

export const todoWriteTool: Tool<Args> = {
  name: "todo_write",
  description:
    "Replace the todo list with todos [{content, status: pending|in_progress|completed}] to plan " +
    "multi-step work; one item in_progress at a time.",
  get schema() {
    return schema();
  },
  kind: "read",
  paths: () => [],
  present: (args) => ({
    title: `${Array.isArray(args.todos) ? args.todos.length : 0} items`,
    kind: "think",
    locations: [],
  }),
  async run(args, ctx) {
    const items = args.todos.map((t) => ({ content: t.content, status: t.status }));
    ctx.todos.set(items);
    return ok(`Todo list updated:\n${renderTodos(items)}`);
  },
};
