import { it } from "vitest";
import { writeFileSync } from "node:fs";
import { useTui } from "./support.js";
const t = useTui();
it("x", async () => {
  const vt = await t.start();
  const before = vt.raw.length;
  await vt.type("ab");
  await new Promise((r) => setTimeout(r, 300));
  writeFileSync("/tmp/scratch/raw.txt", JSON.stringify(vt.raw.slice(0)));
  console.log(vt.screen().join("\n"));
});
