import { expect, test } from "vitest";
import { FS_ERROR_DESCRIPTIONS, isFsErrorCode } from "../../src/contract/errors.js";

test("isFsErrorCode: our codes only, never an inherited key or a non-string", () => {
  expect(Object.keys(FS_ERROR_DESCRIPTIONS).every(isFsErrorCode)).toBe(true);
  expect(["ECONNRESET", "toString", "constructor", "enoent", "", 2, undefined, null].map(isFsErrorCode)).toEqual([
    false,
    false,
    false,
    false,
    false,
    false,
    false,
    false,
  ]);
});
