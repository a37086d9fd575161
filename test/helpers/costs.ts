import { expect } from "chai";

/**
 * Asserts that a total equals the sum of its breakdown. Each part and the total are rounded to
 * 6 decimals on their own (roundCost), so the sum of n rounded parts may sit up to half a
 * millionth per part, plus half for the total, away from the rounded total: a fixed 1e-6
 * tolerance fails on some token counts.
 */
export function expectTotalOfParts(total: number, parts: number[], what = "total_cost"): void {
  const sum = parts.reduce((a, b) => a + b, 0);
  const tolerance = (parts.length + 1) * 0.5e-6 + 1e-12;
  expect(total, `${what} against the sum of its parts`).to.be.closeTo(sum, tolerance);
}
