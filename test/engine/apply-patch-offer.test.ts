// R-EDIT-1 at engine level: which edit tool a model is offered (the default rule, the catalogue,
// `models["…"].editTool`), and an apply_patch call run through a real session: judged, written,
// checkpointed like any edit.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultEditTool, editToolFor } from "../../src/config/edit-tool.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const h = useHarness();

const toolNames = (body: any): string[] => body.tools.map((t: any) => t.function?.name ?? t.name);

describe("the edit tool a model is offered (R-EDIT-1)", () => {
  it("defaults to apply_patch for OpenAI gpt-5 and codex models, edit_file for others", () => {
    expect(defaultEditTool("openai/gpt-5")).toBe("apply_patch");
    expect(defaultEditTool("openai/gpt-5.1-codex")).toBe("apply_patch");
    expect(defaultEditTool("azure/my-codex-deploy")).toBe("apply_patch");
    expect(defaultEditTool("openai/gpt-4.1")).toBe("edit_file");
    expect(defaultEditTool("anthropic/claude-sonnet-4-5")).toBe("edit_file");
    expect(editToolFor("openai/gpt-5", { editTool: "edit_file" })).toBe("edit_file");
    expect(editToolFor("anthropic/claude-sonnet-4-5", { editTool: "apply_patch" })).toBe("apply_patch");
  });

  it("a codex model gets apply_patch and no edit_file/edit_lineno; a call of edit_file is told why", async () => {
    writeFileSync(join(h.dirs.workspace, "a.txt"), "one\r\ntwo\r\n");
    const t = await h.start({ config: (c) => (c.model = "local/mock-codex") });
    h.provider.enqueue(
      openaiToolCalls([
        {
          id: "c1",
          name: "apply_patch",
          args: { input: "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** End Patch" },
        },
        { id: "c2", name: "edit_file", args: { path: "a.txt", old_string: "one", new_string: "1" } },
      ]),
      openaiText("done"),
    );
    const out = await t.prompt("edit");
    expect(out.stopReason).toBe("completed");
    const names = toolNames(h.provider.requests[0].body);
    expect(names).toContain("apply_patch");
    expect(names).not.toContain("edit_file");
    expect(names).not.toContain("edit_lineno");
    expect(readFileSync(join(h.dirs.workspace, "a.txt"), "utf8")).toBe("one\r\nTWO\r\n");
    const second = h.provider.requests[1].body.messages.filter((m: any) => m.role === "tool");
    expect(second[0].content).toBe("Success. Updated the following files:\nM a.txt");
    expect(second[1].content).toBe("edit_file is not offered to this model; edit files with apply_patch.");
  });

  it("other models keep edit_file; models[…].editTool switches either way", async () => {
    const plain = await h.start();
    h.provider.enqueue(openaiText("hi"));
    await plain.prompt("hi");
    expect(toolNames(h.provider.requests[0].body)).toEqual(
      expect.arrayContaining(["edit_file", "edit_lineno", "write_file"]),
    );
    expect(toolNames(h.provider.requests[0].body)).not.toContain("apply_patch");
    const forced = await h.start({ config: (c) => (c.models["local/mock-1"] = { editTool: "apply_patch" }) });
    h.provider.enqueue(openaiText("hi"));
    await forced.prompt("hi");
    expect(toolNames(h.provider.requests[1].body)).toContain("apply_patch");
    expect(toolNames(h.provider.requests[1].body)).not.toContain("edit_file");
  });
});
