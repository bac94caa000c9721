import { generateText, isStepCount } from "ai";
import { describe, expect, test } from "vitest";
import { toAiSdkTool } from "../../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { resultText } from "../../../src/tools/kit/result.js";
import {
  createTextEditorTool,
  TEXT_EDITOR_TOOL_NAME,
  type TextEditorInput,
} from "../../../src/tools/signature/index.js";
import { memoryStore } from "../../../src/tools/kit/state.js";
import { ToolInputError } from "../../../src/tools/kit/tool.js";
import { scriptedModel, toolOutputsSentAt } from "../../ai-sdk/mock-model.js";

const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function setup(files: Record<string, string>) {
  const fs = memoryFileSystem({ files });
  const editor = createTextEditorTool({ fs, cwd: "/w" });
  return {
    fs,
    run: async (input: Record<string, unknown>) =>
      resultText(await editor.execute(editor.validate(input) as TextEditorInput)),
  };
}

describe("text editor commands", () => {
  test("view a file, a range, a range to the end, and range errors", async () => {
    const { run } = setup({ "/w/a.txt": "one\ntwo\nthree\nfour\n" });
    expect(await run({ command: "view", path: "/w/a.txt" })).toBe(
      "Here's the result of running `cat -n` on /w/a.txt:\n     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n",
    );
    expect(await run({ command: "view", path: "/w/a.txt", view_range: [2, 3] })).toBe(
      "Here's the result of running `cat -n` on /w/a.txt:\n     2\ttwo\n     3\tthree\n",
    );
    expect(await run({ command: "view", path: "/w/a.txt", view_range: [3, -1] })).toBe(
      "Here's the result of running `cat -n` on /w/a.txt:\n     3\tthree\n     4\tfour\n",
    );
    expect(await run({ command: "view", path: "/w/a.txt", view_range: [3, 2] })).toBe(
      "Invalid `view_range`: [3, 2]. Its second element `2` should be larger or equal than its first `3`",
    );
    expect(await run({ command: "view", path: "/w/a.txt", view_range: [0, 2] })).toBe(
      "Invalid `view_range`: [0, 2]. Its first element `0` should be within the range of lines of the file: [1, 4]",
    );
    expect(await run({ command: "view", path: "/w/a.txt", view_range: [1, 9] })).toBe(
      "Invalid `view_range`: [1, 9]. Its second element `9` should be smaller than the number of lines in the file: `4`",
    );
    expect(await run({ command: "view", path: "/w/missing" })).toBe(
      "The path /w/missing does not exist. Please provide a valid path.",
    );
  });

  test("view a directory two levels deep, hidden items left out", async () => {
    const { run } = setup({
      "/w/a.txt": "a",
      "/w/.git/x": "x",
      "/w/src/b.ts": "b",
      "/w/src/deep/c.ts": "c",
      "/w/src/.env": "s",
    });
    expect(await run({ command: "view", path: "/w" })).toBe(
      "Here's the files and directories up to 2 levels deep in /w, excluding hidden items:\n/w\n/w/a.txt\n/w/src\n/w/src/b.ts\n/w/src/deep\n",
    );
    expect(await run({ command: "view", path: "/w", view_range: [1, 2] })).toBe(
      "The `view_range` parameter is not allowed when `path` points to a directory.",
    );
  });

  test("create refuses to overwrite", async () => {
    const { fs, run } = setup({ "/w/a.txt": "a\n" });
    expect(await run({ command: "create", path: "/w/new/b.txt", file_text: "b\n" })).toBe(
      "File created successfully at: /w/new/b.txt",
    );
    expect(decode(await fs.readFile("/w/new/b.txt"))).toBe("b\n");
    expect(await run({ command: "create", path: "/w/a.txt", file_text: "x" })).toBe(
      "File already exists at: /w/a.txt. Cannot overwrite files using command `create`.",
    );
    expect(await run({ command: "create", path: "/w/c.txt" })).toBe(
      "Parameter `file_text` is required for command: create",
    );
  });

  test("str_replace: exactly one match, with a snippet; none; several", async () => {
    const { fs, run } = setup({ "/w/a.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\nx\nx\n" });
    expect(await run({ command: "str_replace", path: "/w/a.txt", old_str: "6\n", new_str: "six\nSIX\n" })).toBe(
      "The file /w/a.txt has been edited. Here's the result of running `cat -n` on a snippet of /w/a.txt:\n" +
        "     2\t2\n     3\t3\n     4\t4\n     5\t5\n     6\tsix\n     7\tSIX\n     8\t7\n     9\t8\n    10\t9\n    11\t10\n    12\tx\n" +
        "Review the changes and make sure they are as expected. Edit the file again if necessary.",
    );
    expect(decode(await fs.readFile("/w/a.txt"))).toBe("1\n2\n3\n4\n5\nsix\nSIX\n7\n8\n9\n10\nx\nx\n");
    expect(await run({ command: "str_replace", path: "/w/a.txt", old_str: "nope", new_str: "y" })).toBe(
      "No replacement was performed, old_str `nope` did not appear verbatim in /w/a.txt.",
    );
    expect(await run({ command: "str_replace", path: "/w/a.txt", old_str: "x", new_str: "y" })).toBe(
      "No replacement was performed. Multiple occurrences of old_str `x` in lines [6, 12, 13]. Please ensure it is unique",
    );
    expect(await run({ command: "str_replace", path: "/w", old_str: "x" })).toBe(
      "The path /w is a directory and only the `view` command can be used on directories",
    );
  });

  test("insert after a line keeps CRLF and BOM; range checked", async () => {
    const { fs, run } = setup({ "/w/crlf.txt": "\uFEFFa\r\nb\r\n", "/w/n.txt": "a\nb" });
    expect(await run({ command: "insert", path: "/w/crlf.txt", insert_line: 1, insert_text: "x\ny\n" })).toBe(
      "The file /w/crlf.txt has been edited. Here's the result of running `cat -n` on a snippet of the edited file:\n" +
        "     1\ta\n     2\tx\n     3\ty\n     4\tb\n" +
        "Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.",
    );
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await fs.readFile("/w/crlf.txt"))).toBe(
      "\uFEFFa\r\nx\r\ny\r\nb\r\n",
    );
    await run({ command: "insert", path: "/w/n.txt", insert_line: 2, insert_text: "c" });
    expect(decode(await fs.readFile("/w/n.txt"))).toBe("a\nb\nc");
    await run({ command: "insert", path: "/w/n.txt", insert_line: 0, insert_text: "top" });
    expect(decode(await fs.readFile("/w/n.txt"))).toBe("top\na\nb\nc");
    expect(await run({ command: "insert", path: "/w/n.txt", insert_line: 9, insert_text: "z" })).toBe(
      "Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 4]",
    );
    expect(await run({ command: "insert", path: "/w/n.txt", insert_text: "z" })).toBe(
      "Parameter `insert_line` is required for command: insert",
    );
  });

  test("validate refuses unknown commands and keys", () => {
    const editor = createTextEditorTool({ fs: memoryFileSystem() });
    expect(editor.name).toBe(TEXT_EDITOR_TOOL_NAME);
    expect(() => editor.validate({ command: "undo_edit", path: "/a" })).toThrow(
      new ToolInputError(
        "Unrecognized command undo_edit. The allowed commands for the str_replace_based_edit_tool tool are: view, create, str_replace, insert",
      ),
    );
    expect(() => editor.validate({ command: "view", path: "/a", view_range: [1] })).toThrow(
      new ToolInputError("Invalid `view_range`. It should be a list of two integers."),
    );
    expect(() => editor.validate({ command: "view", path: "/a", file: "x" })).toThrow(
      new ToolInputError(
        "Unknown str_replace_based_edit_tool input key: file. Expected command, path, view_range, file_text, old_str, new_str, insert_line, insert_text",
      ),
    );
  });
});

describe("text editor through generateText", () => {
  test("view, str_replace (read-before-write honoured), insert, create", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.py": "def f():\n    return 1\n" } });
    const editor = toAiSdkTool(createTextEditorTool({ fs, cwd: "/w", state: memoryStore() }));
    const nulls = {
      view_range: null,
      file_text: null,
      old_str: null,
      new_str: null,
      insert_line: null,
      insert_text: null,
    };
    const model = scriptedModel([
      {
        calls: [
          {
            tool: TEXT_EDITOR_TOOL_NAME,
            input: { ...nulls, command: "str_replace", path: "/w/a.py", old_str: "1", new_str: "2" },
          },
        ],
      },
      { calls: [{ tool: TEXT_EDITOR_TOOL_NAME, input: { ...nulls, command: "view", path: "/w/a.py" } }] },
      {
        calls: [
          {
            tool: TEXT_EDITOR_TOOL_NAME,
            input: { ...nulls, command: "str_replace", path: "/w/a.py", old_str: "return 1", new_str: "return 2" },
          },
        ],
      },
      {
        calls: [
          {
            tool: TEXT_EDITOR_TOOL_NAME,
            input: { ...nulls, command: "insert", path: "/w/a.py", insert_line: 0, insert_text: "import os" },
          },
        ],
      },
      {
        calls: [
          {
            tool: TEXT_EDITOR_TOOL_NAME,
            input: { ...nulls, command: "create", path: "/w/b.py", file_text: "x = 1\n" },
          },
        ],
      },
      { text: "done" },
    ]);
    const result = await generateText({
      model,
      tools: { [TEXT_EDITOR_TOOL_NAME]: editor },
      prompt: "work",
      stopWhen: isStepCount(8),
    });
    expect(result.text).toBe("done");
    // A failed call is error-text (its text unchanged); the others are content.
    const texts = toolOutputsSentAt(model, 5).map((sent) => {
      const output = (sent as { output: { type: string; value: string | Array<{ text: string }> } }).output;
      return typeof output.value === "string" ? output.value : output.value[0]?.text;
    });
    expect(texts).toEqual([
      "a.py has not been read in this session. Read the file first, then retry.",
      "Here's the result of running `cat -n` on /w/a.py:\n     1\tdef f():\n     2\t    return 1\n",
      "The file /w/a.py has been edited. Here's the result of running `cat -n` on a snippet of /w/a.py:\n     1\tdef f():\n     2\t    return 2\n" +
        "Review the changes and make sure they are as expected. Edit the file again if necessary.",
      "The file /w/a.py has been edited. Here's the result of running `cat -n` on a snippet of the edited file:\n     1\timport os\n     2\tdef f():\n     3\t    return 2\n" +
        "Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.",
      "File created successfully at: /w/b.py",
    ]);
    expect(decode(await fs.readFile("/w/a.py"))).toBe("import os\ndef f():\n    return 2\n");
  });
});

describe("text editor: read errors and notes speak view_range", () => {
  test("a file over the cap suggests a view_range", async () => {
    const line = "y".repeat(99);
    const fs = memoryFileSystem({ files: { "/w/log.txt": `${line}\n`.repeat(4000) } });
    const editor = createTextEditorTool({ fs, cwd: "/w" });
    const result = await editor.execute({ command: "view", path: "/w/log.txt" });
    expect(resultText(result)).toBe(
      "log.txt is 390.6 KiB (400,000 bytes) (4,000 lines), over the read cap of 256.0 KiB (262,144 bytes); nothing was returned. " +
        "Read it in parts with view_range, e.g. view_range=[1, 2503], then continue from the next line; or search its content for what you need.",
    );
  });
});
