import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { sameBytes } from "../../src/contract/bytes.js";

describe("sameBytes", () => {
  test("sameBytes agrees with element-wise comparison at any alignment", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 40 }),
        fc.nat(3),
        fc.nat(3),
        fc.option(fc.nat(39)),
        (data, cutA, cutB, flip) => {
          const a = new Uint8Array(data.length + 4);
          a.set(data, cutA);
          const b = new Uint8Array(data.length + 4);
          b.set(data, cutB);
          const va = a.subarray(cutA, cutA + data.length);
          const vb = b.subarray(cutB, cutB + data.length);
          if (flip !== null && flip < data.length) vb[flip] = vb[flip]! ^ 1;
          expect(sameBytes(va, vb)).toBe(va.every((x, i) => x === vb[i]));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

test("sameBytes: equal, different length, one byte apart, the same view", () => {
  const a = Uint8Array.of(1, 2, 3, 4, 5);
  expect([
    sameBytes(a, Uint8Array.of(1, 2, 3, 4, 5)),
    sameBytes(a, Uint8Array.of(1, 2, 3, 4)),
    sameBytes(a, Uint8Array.of(1, 2, 3, 4, 6)),
    sameBytes(a, a),
    sameBytes(new Uint8Array(0), new Uint8Array(0)),
  ]).toEqual([true, false, false, true, true]);
});
