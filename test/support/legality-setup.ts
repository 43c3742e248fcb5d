// Shared by every test file (vitest `setupFiles`): a request the fake provider refused because a
// real provider would (request-rules.ts) fails the test that sent it, even when the test itself
// went on to pass, so every test that talks to the fake provider checks legality.
import { afterAll, afterEach } from "vitest";
import { takeUnreportedViolations } from "./fake-provider.js";

function failOnViolations(): void {
  const violations = takeUnreportedViolations();
  if (violations.length === 0) return;
  throw new Error(
    `a request broke the provider's rules (a real provider answers 400):\n  ${violations.join("\n  ")}`,
  );
}

afterEach(failOnViolations);
// Requests sent from beforeAll/afterAll hooks belong to no single test.
afterAll(failOnViolations);
