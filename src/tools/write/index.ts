/**
 * The `write` tool: create or replace a file with the given text, creating parent directories.
 *
 * @module
 */
import { FsError } from "../../contract/errors.js";
import type { ToolContextOptions } from "../kit/context.js";
import { defineCoreTool } from "../kit/define.js";
import { toolErrorFromFs } from "../kit/fs-failure.js";
import { checkFresh, recordBefore, recordSeen, describeReadFirst } from "../kit/freshness.js";
import type { InputSpec } from "../kit/input.js";
import { errorResult, textParts, type MutationResult } from "../kit/result.js";
import { encodeUtf8, loneSurrogateMessage } from "../kit/text.js";
import type { CoreTool } from "../kit/tool.js";
import { trailingSlashError } from "../kit/path-form.js";

/** The `write` tool's own options (none yet; the key exists so bundles can pass settings later). */
export type WriteToolSettings = Record<never, never>;

/** Options of {@link createWriteTool}. */
export interface WriteToolOptions extends ToolContextOptions, WriteToolSettings {}

/** Input of the `write` tool. */
export interface WriteInput {
  /** File path, relative to cwd or absolute. */
  readonly path: string;
  /** The whole new content, written as UTF-8 exactly as given. */
  readonly content: string;
}

/** The keys of {@link WriteToolSettings}. */
export const WRITE_SETTING_KEYS = [] as const;

/** The fields of {@link WriteInput}. */
export const WRITE_INPUT_SPEC: InputSpec = {
  path: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "Path of the file to write, relative to the working directory or absolute. Missing parent directories are created.",
  },
  content: { type: "string", required: true, description: "The complete new content of the file." },
};

/** The default description of the `write` tool (with a read-before-write store, `READ_FIRST_NOTE` follows). */
export const WRITE_DESCRIPTION =
  "Create a file, or replace an existing file's whole content. Parent directories are created. " +
  "To change part of a file, use edit.";

/**
 * Create the `write` tool.
 *
 * @param options - the shared context options.
 * @returns a {@link CoreTool} named `write` whose result text is `wrote N bytes to PATH`, with a
 *   change `added` (new file) or `updated`. Failures (`ok: false`, nothing written): `EISDIR` (the
 *   target is a directory, or the path ends in `/`: `Cannot write "newdir/": a path ending in "/"
 *   names a directory, not a file. ...`), `EINPUT` (a `file:` URL or `~/` path: the path to give
 *   instead), `EINPUT` (content with a lone surrogate, half of a character, which
 *   has no UTF-8 form), `ENOTDIR` (a parent is a file), `ENOTREAD`/`ESTALE` (with a state
 *   store: an existing file not read in this session, or changed since), `EDENIED`, backend
 *   errors such as `ENOSPC` or `EROFS`; `ESTALE` also when another call wrote the file after this
 *   one began (two parallel writes to one new path: the first lands, the second is refused).
 *   Writes to one path are serialised by `locks` (by default shared by every tool over the same
 *   backend object), and the existence and freshness checks run inside the lock with the write.
 * @throws TypeError at creation for an unknown option.
 * @example
 * ```ts
 * const write = createWriteTool({ fs, cwd: "/w" });
 * await write.execute({ path: "src/new.ts", content: "export {};\n" }); // "wrote 11 bytes to src/new.ts"
 * ```
 */
export function createWriteTool(options: WriteToolOptions): CoreTool<WriteInput, MutationResult> {
  return writeTool(options);
}

const writeTool = defineCoreTool({
  factory: "createWriteTool",
  name: "write",
  kind: "mutation",
  spec: WRITE_INPUT_SPEC,
  settings: WRITE_SETTING_KEYS,
  description: (_setup, options) => describeReadFirst(WRITE_DESCRIPTION, options, "An existing file"),
  async run(input: WriteInput, ctx): Promise<MutationResult> {
    const { gate } = ctx;
    const checked = await gate.check(input.path, "write");
    if (!checked.ok) return errorResult("mutation", checked.error);
    const path = checked.path;
    const display = gate.display(path);
    const slash = trailingSlashError(input.path, "write", path);
    if (slash !== undefined) return errorResult("mutation", slash);
    const malformed = loneSurrogateMessage({ content: input.content });
    if (malformed !== undefined) return errorResult("mutation", { code: "EINPUT", path, message: malformed });
    // What this session knew of the file when the call began: the check below, inside the
    // lock, refuses to overwrite what another call wrote while this one waited.
    const before = { record: await recordBefore(ctx, path) };
    return ctx.locks.run([path], async () => {
      let existed = false;
      try {
        const stat = await gate.fs.stat(path);
        if (stat.type === "directory") {
          return errorResult("mutation", {
            code: "EISDIR",
            path,
            message: `Cannot write ${display}: it is a directory. Choose a file path inside it.`,
          });
        }
        existed = true;
        if (ctx.state !== undefined) {
          const stale = await checkFresh(ctx, path, display, await gate.fs.readFile(path), "overwrite", before);
          if (stale !== undefined) return errorResult("mutation", stale);
        }
      } catch (error) {
        if (!(FsError.isInstance(error) && error.code === "ENOENT")) {
          return errorResult("mutation", toolErrorFromFs(error, path, display));
        }
      }
      const data = encodeUtf8(input.content);
      try {
        await gate.fs.writeFile(path, data);
      } catch (error) {
        return errorResult("mutation", toolErrorFromFs(error, path, display));
      }
      await recordSeen(ctx, path, data);
      return {
        kind: "mutation",
        ok: true,
        parts: textParts(`wrote ${data.length} ${data.length === 1 ? "byte" : "bytes"} to ${display}`),
        changes: [{ action: existed ? "updated" : "added", path, bytes: data.length }],
      };
    });
  },
});
