import { describe, expect, test } from "vitest";
import { pathFormError, trailingSlashError } from "../../../src/tools/kit/path-form.js";

describe("pathFormError", () => {
  test.each([
    ["file:///w/a.txt", '"file:///w/a.txt" is a URL; give the path itself: "/w/a.txt".'],
    ["file://host/w/a%20b.txt", '"file://host/w/a%20b.txt" is a URL; give the path itself: "/w/a b.txt".'],
    ["FILE:/x", '"FILE:/x" is a URL; give the path itself: "/x".'],
    ["file://", '"file://" is a URL; give the path itself: "/".'],
    ["file:///%E0%A4%A", '"file:///%E0%A4%A" is a URL; give the path itself: "/%E0%A4%A".'],
    [
      "~",
      '"~": "~" (a home directory) is not expanded here. Give the path relative to the working directory (".") or absolute; for a directory really named "~", write "./~".',
    ],
    [
      "~/src/a.ts",
      '"~/src/a.ts": "~" (a home directory) is not expanded here. Give the path relative to the working directory ("src/a.ts") or absolute; for a directory really named "~", write "./~/src/a.ts".',
    ],
  ])("%s is refused", (given, message) => {
    expect(pathFormError(given)).toEqual({ code: "EINPUT", message });
  });

  test.each(["a.txt", "~draft.txt", "./~/x", "/w/file:x", "files/a", "dir/~/x"])("%s passes", (given) => {
    expect(pathFormError(given)).toBeUndefined();
  });
});

describe("trailingSlashError", () => {
  test("names the directory form and what to give instead", () => {
    expect(trailingSlashError("src/a.ts/", "edit", "/w/src/a.ts")).toEqual({
      code: "EISDIR",
      path: "/w/src/a.ts",
      message:
        'Cannot edit "src/a.ts/": a path ending in "/" names a directory, not a file. For the file "src/a.ts" itself, leave out the final "/".',
    });
    expect(trailingSlashError("/", "add")?.message).toBe(
      'Cannot add "/": a path ending in "/" names a directory, not a file. Give a file\'s path.',
    );
    expect(trailingSlashError("a.txt", "write")).toBeUndefined();
    expect(trailingSlashError("a/.hidden", "write")).toBeUndefined();
  });
});

test("write of / names no file to make", () => {
  expect(trailingSlashError("/", "write")?.message).toBe(
    'Cannot write "/": a path ending in "/" names a directory, not a file. To make a file in it, name the file ("/file.txt"; missing directories are created).',
  );
});
