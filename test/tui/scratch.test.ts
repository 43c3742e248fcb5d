import { it } from "vitest";
import { useTui } from "./support.js";
const t = useTui();
it("x", async () => {
  const vt = await t.start();
  await vt.type("abc");
  await vt.waitForScreen("› abc");
  const at = vt.raw.length;
  await vt.resize(60, 30);
  await new Promise((r) => setTimeout(r, 500));
  console.log(JSON.stringify(vt.raw.slice(at)));
  console.log(vt.screen().join("\n"));
});
