import { describe, expect, it } from "vitest";
import { recallTool } from "../../src/tools/builtin/recall.js";
import { todoWriteTool } from "../../src/tools/builtin/todo-write.js";
import { makeCtx, textOf } from "./helpers.js";

describe("todo_write (R-TODO)", () => {
  it("replaces the list through ctx.todos and renders it", async () => {
    const ctx = makeCtx("/tmp");
    ctx.todos.set([{ content: "old", status: "pending" }]);
    const r = await todoWriteTool.run(
      {
        todos: [
          { content: "plan", status: "completed" },
          { content: "build", status: "in_progress" },
          { content: "test", status: "pending" },
        ],
      },
      ctx,
    );
    expect(ctx.todoList.map((t) => t.content)).toEqual(["plan", "build", "test"]);
    expect(textOf(r)).toBe("Todo list updated:\n[x] plan\n[>] build\n[ ] test");
  });
});

describe("recall (R-COMP-7)", () => {
  it("says everything is in context when nothing was compacted", async () => {
    const r = await recallTool.run({ turn: 1 }, makeCtx("/tmp"));
    expect(r.outcome).toBe("ok");
    expect(textOf(r)).toMatch(/already in your context/);
  });

  it("passes turn and round to ctx.recall and turns its refusal into an error", async () => {
    const seen: unknown[] = [];
    const ctx = makeCtx("/tmp", {
      recall: (turn, round) => {
        seen.push([turn, round]);
        if (turn === 9) throw new Error("turn 9 is still open; readable: turns 1-8");
        return `turn ${turn} round ${round}`;
      },
    });
    expect(textOf(await recallTool.run({ turn: 2, round: 3 }, ctx))).toBe("turn 2 round 3");
    const bad = await recallTool.run({ turn: 9 }, ctx);
    expect(bad.outcome).toBe("error");
    expect(textOf(bad)).toMatch(/readable: turns 1-8/);
    expect(seen).toEqual([
      [2, 3],
      [9, undefined],
    ]);
  });
});
