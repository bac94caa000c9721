import { describe, expect, test } from "vitest";
import { toFsError } from "../../../src/backends/node/errors.js";

describe("toFsError", () => {
  test("a file over 2 GiB (ERR_FS_FILE_TOO_LARGE) is EFBIG, not ENOSPC", () => {
    const nodeError = Object.assign(new RangeError("File size (3221225472) is greater than 2 GiB"), {
      code: "ERR_FS_FILE_TOO_LARGE",
    });
    const error = toFsError(nodeError, "open", "/big.log");
    expect([error.code, error.cause]).toEqual(["EFBIG", nodeError]);
  });

  test("a RangeError without a code (a buffer too large to allocate) is EFBIG; other errors EIO", () => {
    expect(toFsError(new RangeError("Array buffer allocation failed"), "open", "/big.log").code).toBe("EFBIG");
    expect(toFsError(new Error("odd"), "open", "/a").code).toBe("EIO");
    expect(toFsError(Object.assign(new Error("x"), { code: "ENOENT" }), "open", "/a").code).toBe("ENOENT");
  });
});
