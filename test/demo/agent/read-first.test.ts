/**
 * The tool console reads a file before it changes it (demo/src/agent/read-first.ts), so its
 * prefilled examples run as they are: the files a call changes, and the reads done through the
 * `read` tool of a memory session.
 */
import { describe, expect, it } from "vitest";
import { filesToReadFirst, readFirst } from "../../../demo/src/agent/read-first.js";
import { callToolAsModel } from "../../../demo/src/agent/tool-call.js";
import { openSession, workspacePath } from "../../../demo/src/workspace/session.js";

describe("filesToReadFirst", () => {
  it("names edit's and write's path and apply_patch's updated and deleted files, once each", () => {
    expect(filesToReadFirst("edit", { path: "src/config.ts", oldText: "a", newText: "b" })).toEqual(["src/config.ts"]);
    expect(filesToReadFirst("write", { path: "notes/a.md", content: "x" })).toEqual(["notes/a.md"]);
    expect(
      filesToReadFirst("apply_patch", {
        patch:
          "*** Begin Patch\n*** Add File: new.md\n+x\n*** Update File: docs/api.md\n@@\n-a\n+b\n*** Delete File: old.md\n*** Update File: docs/api.md\n@@\n-c\n+d\n*** End Patch",
      }),
    ).toEqual(["docs/api.md", "old.md"]);
    expect(filesToReadFirst("read", { path: "README.md" })).toEqual([]);
    expect(filesToReadFirst("edit", "not an object")).toEqual([]);
  });
});

describe("readFirst", () => {
  it("reads each existing file the call changes, so the console's prefilled edit succeeds as it is", async () => {
    const session = await openSession("memory", async () => false, { seedWhenEmpty: true });
    const context = {
      tools: session.tools,
      isFile: (path: string) =>
        session.gate.fs.stat(workspacePath(path)).then(
          (stat) => stat.type === "file",
          () => false,
        ),
    };
    const edit = {
      path: "src/config.ts",
      oldText: "export const DEFAULT_PORT = 3000;",
      newText: "export const DEFAULT_PORT = 8080;",
      replaceAll: null,
    };
    const before = await callToolAsModel(session.tools, "edit", edit);
    expect(before.output).toEqual({
      type: "error-text",
      value: "src/config.ts has not been read in this session. Read the file first, then retry.",
    });
    expect(await readFirst(context, "edit", edit)).toEqual(["src/config.ts"]);
    // A file that does not exist is not read (the write creates it).
    expect(await readFirst(context, "write", { path: "notes/new.md", content: "x" })).toEqual([]);
    const after = await callToolAsModel(session.tools, "edit", edit);
    expect(after.output).toEqual({
      type: "content",
      value: [{ type: "text", text: "replaced 1 occurrence in src/config.ts at line 8" }],
    });
    // Changed since it was read (a reset loads the sample again): read again, and the edit runs.
    await session.reset();
    expect(await callToolAsModel(session.tools, "edit", edit)).toEqual({
      output: {
        type: "error-text",
        value: "src/config.ts has changed since it was last read. Read the file again, then retry.",
      },
      result: expect.anything(),
    });
    expect(await readFirst(context, "edit", edit)).toEqual(["src/config.ts"]);
    expect((await callToolAsModel(session.tools, "edit", edit)).output).toEqual(after.output);
    await session.close();
  });
});
