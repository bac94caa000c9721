import { expect, test } from "vitest";
import { FsError } from "../../src/contract/errors.js";
import { NodeFsError, toNodeError } from "../../src/node-fs/errors.js";

test("toNodeError: the detail comes from the FsError's field, even when the path holds parentheses", () => {
  const cause = new FsError("EACCES", { syscall: "open", path: "/w/f(1)", detail: "outside (the root)" });
  const error = toNodeError(cause, "open", "f(1)") as NodeFsError;
  expect(error).toBeInstanceOf(NodeFsError);
  expect(error.message).toBe("EACCES: permission denied, open 'f(1)' (outside (the root))");
  expect([error.code, error.errno, error.syscall, error.path, error.cause]).toEqual([
    "EACCES",
    -13,
    "open",
    "f(1)",
    cause,
  ]);
});

test("toNodeError: no detail field, no detail, whatever the message looks like", () => {
  const cause = new FsError("ENOENT", { syscall: "open", path: "/w/a (b)" });
  expect((toNodeError(cause, "open", "x (y)") as NodeFsError).message).toBe(
    "ENOENT: no such file or directory, open 'x (y)'",
  );
  // A message edited to end in "(...)" is not read back as a detail.
  const edited = new FsError("ENOENT", { syscall: "open", path: "/a" });
  Object.defineProperty(edited, "message", { value: "ENOENT: no such file or directory, open '/a' (made up)" });
  expect((toNodeError(edited, "stat", "a") as NodeFsError).message).toBe("ENOENT: no such file or directory, stat 'a'");
});

test("toNodeError: a NodeFsError or a non-FsError is returned as is", () => {
  const node = new NodeFsError({ code: "EBADF", syscall: "read" });
  const plain = new Error("boom (x)");
  expect(toNodeError(node, "open", "a")).toBe(node);
  expect(toNodeError(plain, "open", "a")).toBe(plain);
});
