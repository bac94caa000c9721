import { expect, test } from "vitest";
import { FS_ERROR_DESCRIPTIONS, FsError, isFsErrorCode } from "../../src/contract/errors.js";

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

test("FsError.resolvedPrefix: a frozen copy of what was given, absent otherwise; the message unchanged", () => {
  const missing = ["new", "a.txt"];
  const error = new FsError("ENOENT", {
    syscall: "realpath",
    path: "/w/link/new/a.txt",
    resolvedPrefix: { real: "/w/real", missing },
  });
  missing.push("changed later");
  expect([error.message, error.resolvedPrefix]).toEqual([
    "ENOENT: no such file or directory, realpath '/w/link/new/a.txt'",
    { real: "/w/real", missing: ["new", "a.txt"] },
  ]);
  expect([Object.isFrozen(error.resolvedPrefix), Object.isFrozen(error.resolvedPrefix?.missing)]).toEqual([true, true]);
  expect(new FsError("ENOENT", { syscall: "open", path: "/a" }).resolvedPrefix).toBeUndefined();
});

test("FsError.detail: the detail as given, in a field; undefined when none", () => {
  const error = new FsError("ENOSPC", { syscall: "write", path: "/f(1)", detail: "quota: 3 (of 8) bytes left" });
  expect(error.detail).toBe("quota: 3 (of 8) bytes left");
  expect(error.message).toBe("ENOSPC: no space left on device, write '/f(1)' (quota: 3 (of 8) bytes left)");
  expect(new FsError("ENOENT", { syscall: "open", path: "/a (b)" }).detail).toBeUndefined();
});
