// Test-only preload for the built CLI (NODE_OPTIONS=--require <this file>): the wall clock steps
// mid-turn. Once the file named by TERN_TEST_CLOCK_STEP exists (a test's fake provider creates it
// at the moment it chooses), Date.now() and new Date() read TERN_TEST_CLOCK_STEP_MS later (or
// earlier, when negative) than the real time, as after an NTP correction or a person setting the
// clock. The monotonic clock (performance.now) is left alone, as the system leaves it.
const fs = require("node:fs");

const trigger = process.env.TERN_TEST_CLOCK_STEP;
const step = Number(process.env.TERN_TEST_CLOCK_STEP_MS ?? 0);
const RealDate = Date;
const offset = () => (trigger && fs.existsSync(trigger) ? step : 0);

class SteppedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset());
    else super(...args);
  }
  static now() {
    return RealDate.now() + offset();
  }
}
globalThis.Date = SteppedDate;
