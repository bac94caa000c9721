/**
 * The `filesystem-server` dialect: the tool set of the official MCP filesystem server
 * (`@modelcontextprotocol/server-filesystem`), with its tool names, parameters, annotations,
 * text and `structuredContent` shapes and `outputSchema`s, run over any backend through our
 * gate. A client configured for the official server works unchanged.
 *
 * Paths are resolved as the official server's `validatePath` resolves them (`~` expanded, a
 * relative path in the first allowed directory holding it, a missing name matched under another
 * Unicode normalisation) and refused with its texts; backend failures carry Node's texts.
 * Where a backend has less to say than a Node `fs.Stats` (`get_file_info`: creation and access
 * times), the modification time stands in; where the official server lists a directory in the
 * host's order, names come sorted by UTF-16 code unit (`directory_tree`, `list_directory`).
 * Paths a `listDir` deny rule refuses are left out of every listing and walk; `search_files`
 * ends with a note counting them (`directory_tree`, whose text is JSON, leaves them out silently).
 *
 * @module
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import picomatch from "picomatch";
import { z } from "zod";
import { FsError } from "../../contract/errors.js";
import { baseName, compareCodeUnits, isWithin, joinPath, parentPath, resolvePath } from "../../contract/path.js";
import type { FileStat, FileSystem } from "../../contract/types.js";
import { walkFiles } from "../../contract/walk.js";
import { createGate, type Access, type Gate } from "../../gate/gate.js";
import { bytesToBase64 } from "../../tools/kit/base64.js";
import { locksFor } from "../../tools/kit/context.js";
import { toolErrorFromFs } from "../../tools/kit/fs-failure.js";
import { encodeUtf8 } from "../../tools/kit/text.js";
import { DEFAULT_WALK_CONCURRENCY, deniedNote, walkSource } from "../../tools/kit/walk.js";
import { noRootsResult, type DialectContext, type McpScope } from "../options.js";

/** The tool names of the `filesystem-server` dialect, as the official server registers them. */
export const FILESYSTEM_SERVER_TOOL_NAMES = [
  "read_file",
  "read_text_file",
  "read_media_file",
  "read_multiple_files",
  "write_file",
  "edit_file",
  "create_directory",
  "list_directory",
  "list_directory_with_sizes",
  "directory_tree",
  "move_file",
  "search_files",
  "get_file_info",
  "list_allowed_directories",
] as const;

/** Media types `read_media_file` gives by file extension; anything else is `application/octet-stream`. */
export const MEDIA_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = Object.freeze({
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".svg": "image/svg+xml",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".flac": "audio/flac",
});

/** A failure the handler turns into an `isError` result with this message. */
class Refusal extends Error {}

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const TEXT_OUTPUT = { content: z.string() };

/** A size as the official server prints it: `0 B`, `512 B`, `1.50 KB`, `2.00 MB`... */
export function formatSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  if (bytes <= 0) return "0 B";
  const exponent = Math.floor(Math.log(bytes) / Math.log(1024));
  if (exponent <= 0) return `${bytes} B`;
  const unit = Math.min(exponent, units.length - 1);
  return `${(bytes / 1024 ** unit).toFixed(2)} ${units[unit]}`;
}

/** A `file://` URI of an absolute POSIX path, each name percent-encoded. */
function fileUri(path: string): string {
  return `file://${path.split("/").map(encodeURIComponent).join("/")}`;
}

function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot).toLowerCase();
}

const crlf = /\r\n/g;

/** The official server reads `head` and `tail` in chunks of this many bytes. */
const LINE_CHUNK_BYTES = 1024;

/** UTF-8 as Node decodes it: invalid bytes become U+FFFD and a BOM is kept as U+FEFF. */
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** Text of a file as the official server reads it (`fs.readFile(path, "utf-8")`). */
export function decodeNodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/**
 * The first `count` lines, as the official `head` gives them: complete lines are taken chunk by
 * chunk until `count` of them are in (a fractional count rounds up, a count below 1 gives
 * nothing), then a last line without `\n` when fewer came.
 */
export function headLines(bytes: Uint8Array, count: number): string {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const lines: string[] = [];
  let buffer = "";
  let offset = 0;
  while (lines.length < count && offset < bytes.length) {
    const end = Math.min(bytes.length, offset + LINE_CHUNK_BYTES);
    buffer += decoder.decode(bytes.subarray(offset, end), { stream: true });
    offset = end;
    const last = buffer.lastIndexOf("\n");
    if (last === -1) continue;
    const complete = buffer.slice(0, last).split("\n");
    buffer = buffer.slice(last + 1);
    for (const line of complete) {
      lines.push(line);
      if (lines.length >= count) break;
    }
  }
  buffer += decoder.decode();
  if (buffer.length > 0 && lines.length < count) lines.push(buffer);
  return lines.join("\n");
}

/**
 * The last `count` lines, as the official `tail` gives them: chunks are read from the end until
 * `count` newlines are in (none for a count below 1), CRLF read as LF, then the last `count`
 * pieces of that text (`slice(-count)`, so a fractional count behaves as JavaScript's slice).
 */
export function tailLines(bytes: Uint8Array, count: number): string {
  let position = bytes.length;
  let newlines = 0;
  while (position > 0 && newlines < count) {
    const size = Math.min(LINE_CHUNK_BYTES, position);
    position -= size;
    for (let index = position; index < position + size; index++) if (bytes[index] === 0x0a) newlines++;
  }
  return decodeNodeUtf8(bytes.subarray(position)).replace(crlf, "\n").split("\n").slice(-count).join("\n");
}

/**
 * Apply `edit_file` edits in order to LF text: an exact match is replaced at its first
 * occurrence; otherwise lines are compared with surrounding whitespace trimmed, and the first
 * matching run is replaced, keeping the first line's indentation and the relative indentation
 * of the rest (the official server's rules).
 *
 * @throws Refusal `Could not find exact match for edit:\n<oldText>` when an edit matches nowhere.
 */
export function applyEdits(content: string, edits: readonly { oldText: string; newText: string }[]): string {
  let text = content;
  for (const edit of edits) {
    const oldText = edit.oldText.replace(crlf, "\n");
    const newText = edit.newText.replace(crlf, "\n");
    const at = text.indexOf(oldText);
    if (at !== -1) {
      text = text.slice(0, at) + newText + text.slice(at + oldText.length);
      continue;
    }
    const oldLines = oldText.split("\n");
    const lines = text.split("\n");
    let found = false;
    for (let start = 0; start <= lines.length - oldLines.length; start++) {
      if (!oldLines.every((line, offset) => line.trim() === lines[start + offset]!.trim())) continue;
      const indent = /^\s*/.exec(lines[start]!)?.[0] ?? "";
      const replacement = newText.split("\n").map((line, index) => {
        if (index === 0) return indent + line.trimStart();
        const oldIndent = /^\s*/.exec(oldLines[index] ?? "")?.[0] ?? "";
        const newIndent = /^\s*/.exec(line)?.[0] ?? "";
        if (oldIndent !== "" && newIndent !== "") {
          return indent + " ".repeat(Math.max(0, newIndent.length - oldIndent.length)) + line.trimStart();
        }
        return line;
      });
      lines.splice(start, oldLines.length, ...replacement);
      text = lines.join("\n");
      found = true;
      break;
    }
    if (!found) throw new Refusal(`Could not find exact match for edit:\n${edit.oldText}`);
  }
  return text;
}

function textResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: { content: text } };
}

function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

function isAbort(error: unknown): boolean {
  const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined;
  return name === "AbortError" || name === "TimeoutError";
}

/**
 * The message of a failure as the official server gives it: a refusal's own text, a backend
 * error's Node text (`ENOENT: no such file or directory, open '/w/a.txt'`; a directory read as
 * a file is `EISDIR: illegal operation on a directory, read`, as Node's `readFile` says).
 */
function messageOf(error: unknown): string {
  if (error instanceof Refusal) return error.message;
  if (FsError.isInstance(error)) {
    if (error.code === "EISDIR" && error.syscall === "open") return "EISDIR: illegal operation on a directory, read";
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Whether `path` lies in one of `roots` (a NUL byte never does, as the official server says). */
function inRoots(roots: readonly string[], path: string): boolean {
  return !path.includes("\0") && roots.some((root) => isWithin(root, path));
}

function codeOf(error: unknown): string | undefined {
  return FsError.isInstance(error) ? error.code : undefined;
}

/** Register the dialect's tools on the context's server. */
export function registerFilesystemServerTools(context: DialectContext): void {
  const { server, options, readOnly } = context;
  const locks = options.locks ?? locksFor(options.fs);
  let cache: { generation: number; gate: Gate } | undefined;
  const gateOf = (scope: McpScope): Gate => {
    if (cache?.generation !== scope.generation) {
      cache = {
        generation: scope.generation,
        gate: createGate({
          fs: options.fs,
          cwd: scope.cwd,
          allowedRoots: scope.roots,
          // A backslash is a name byte where the backend says so (Node on POSIX), as for the official server.
          backslashNames: options.fs.capabilities.backslashNames === true,
          ...(options.permissions !== undefined ? { permissions: options.permissions } : {}),
        }),
      };
    }
    return cache.gate;
  };

  const fs = options.fs;
  const home = context.homeDirectory;

  /**
   * The path a call works on, resolved as the official server's `validatePath` does: `~` and
   * `~/x` expanded; a relative path taken in the first allowed directory that holds it; refused
   * when outside the allowed directories lexically, or once its symlinks are resolved; a missing
   * path walked name by name from its allowed directory so that another Unicode normalisation of
   * a name on disk is found (two candidates are refused as ambiguous). Throws a {@link Refusal}
   * with the official text, or the backend's error.
   */
  async function validate(scope: McpScope, requested: string): Promise<string> {
    const roots = scope.roots;
    const absolute = absoluteOf(scope, requested);
    const allowedText = roots.join(", ");
    let real: string;
    try {
      real = await fs.realpath(absolute);
    } catch (error) {
      if (codeOf(error) === "EACCES") throw new Refusal(await outsideTarget(absolute, allowedText));
      if (codeOf(error) !== "ENOENT") throw error;
      const prefix = (error as FsError).resolvedPrefix;
      return prefix === undefined || (error as FsError).path !== absolute
        ? missingPath(roots, absolute, allowedText)
        : missingFromPrefix(roots, absolute, allowedText, prefix.real, prefix.missing);
    }
    if (!inRoots(roots, real)) {
      throw new Refusal(`Access denied - symlink target outside allowed directories: ${real} not in ${allowedText}`);
    }
    return real;
  }

  /** The absolute path a request names (`~` expanded, a relative path placed), refused when outside. */
  function absoluteOf(scope: McpScope, requested: string): string {
    const roots = scope.roots;
    const expanded =
      home !== undefined && (requested === "~" || requested.startsWith("~/")) ? home + requested.slice(1) : requested;
    if (/^[A-Za-z]:(?:[\\/]|$)/.test(expanded)) {
      throw new Refusal(`Access denied - Windows-style path received on a POSIX host: ${requested}`);
    }
    let absolute: string;
    if (expanded.startsWith("/")) absolute = resolvePath("/", expanded);
    else {
      const candidates = roots.map((root) => resolvePath(root, expanded));
      absolute = candidates.find((candidate) => inRoots(roots, candidate)) ?? candidates[0]!;
    }
    if (!inRoots(roots, absolute)) {
      throw new Refusal(`Access denied - path outside allowed directories: ${absolute} not in ${roots.join(", ")}`);
    }
    return absolute;
  }

  /** The refusal for a path whose links lead outside (the backend would not resolve it). */
  async function outsideTarget(absolute: string, allowedText: string): Promise<string> {
    let target = absolute;
    try {
      if (fs.readlink !== undefined) target = resolvePath(parentPath(absolute), await fs.readlink(absolute));
    } catch {
      // Not a link itself: a directory on the way is one; name the path.
    }
    return `Access denied - symlink target outside allowed directories: ${target} not in ${allowedText}`;
  }

  /**
   * A missing path whose existing part the backend resolved (`real`, then the `missing` names):
   * only the first missing name is looked for under another Unicode normalisation (one
   * `readdir`), and the lookup goes on from there when one is found.
   */
  async function missingFromPrefix(
    roots: readonly string[],
    absolute: string,
    allowedText: string,
    real: string,
    missing: readonly string[],
  ): Promise<string> {
    const parentMissing = () => new Refusal(`Parent directory does not exist: ${parentPath(absolute)}`);
    for (let hops = 0; ; hops++) {
      if (!inRoots(roots, real)) {
        // A served directory deleted since the start: nothing is made in its place.
        const root = roots.find((candidate) => isWithin(candidate, absolute))!;
        try {
          await fs.stat(root);
        } catch (error) {
          if (codeOf(error) === "ENOENT") throw parentMissing();
          throw error;
        }
        throw new Refusal(`Access denied - symlink target outside allowed directories: ${real} not in ${allowedText}`);
      }
      const [name, ...rest] = missing;
      let entries: string[];
      try {
        entries = (await fs.readdir(real)).map((entry) => entry.name);
      } catch (error) {
        if (codeOf(error) === "ENOENT") throw parentMissing();
        if (codeOf(error) === "ENOTDIR") return joinPath(real, missing.join("/"));
        throw error;
      }
      // The name is there but does not resolve: a dangling link on the way.
      if (entries.includes(name!) || hops > 40) throw parentMissing();
      const matches = entries.filter((entry) => entry.normalize("NFC") === name!.normalize("NFC"));
      if (matches.length > 1) throw new Refusal(`Ambiguous Unicode path component: ${name}`);
      if (matches.length === 0) return joinPath(real, missing.join("/"));
      const next = joinPath(joinPath(real, matches[0]!), rest.join("/"));
      try {
        const found = await fs.realpath(next);
        if (!inRoots(roots, found)) {
          throw new Refusal(
            `Access denied - symlink target outside allowed directories: ${found} not in ${allowedText}`,
          );
        }
        return found;
      } catch (error) {
        if (error instanceof Refusal) throw error;
        const prefix = FsError.isInstance(error) && error.code === "ENOENT" ? error.resolvedPrefix : undefined;
        if (prefix === undefined) throw codeOf(error) === "ENOENT" ? parentMissing() : error;
        real = prefix.real;
        missing = prefix.missing;
      }
    }
  }

  /** A missing path, its existing names matched as the official server matches them (NFC). */
  async function missingPath(roots: readonly string[], absolute: string, allowedText: string): Promise<string> {
    const root = [...roots].sort((a, b) => b.length - a.length).find((candidate) => isWithin(candidate, absolute))!;
    const parentMissing = () => new Refusal(`Parent directory does not exist: ${parentPath(absolute)}`);
    let current: string;
    try {
      current = await fs.realpath(root);
    } catch (error) {
      if (codeOf(error) === "ENOENT") throw parentMissing();
      throw error;
    }
    const names = absolute === root ? [] : absolute.slice(root === "/" ? 1 : root.length + 1).split("/");
    for (const [index, name] of names.entries()) {
      let entries: string[];
      try {
        entries = (await fs.readdir(current)).map((entry) => entry.name);
      } catch (error) {
        if (codeOf(error) === "ENOENT") throw parentMissing();
        throw error;
      }
      const matches = entries.includes(name)
        ? [name]
        : entries.filter((entry) => entry.normalize("NFC") === name.normalize("NFC"));
      if (matches.length > 1) throw new Refusal(`Ambiguous Unicode path component: ${name}`);
      if (matches.length === 0) return joinPath(current, names.slice(index).join("/"));
      try {
        current = await fs.realpath(joinPath(current, matches[0]!));
      } catch (error) {
        if (codeOf(error) === "ENOENT") throw parentMissing();
        if (codeOf(error) === "EACCES")
          throw new Refusal(await outsideTarget(joinPath(current, matches[0]!), allowedText));
        throw error;
      }
      if (!inRoots(roots, current)) {
        throw new Refusal(
          `Access denied - symlink target outside allowed directories: ${current} not in ${allowedText}`,
        );
      }
    }
    return current;
  }

  /**
   * Validate a path as the official server does, then through the gate when permission rules
   * are configured (the backend's own jail holds either way).
   */
  async function checked(
    gate: Gate,
    scope: McpScope,
    path: string,
    access: Access,
  ): Promise<{ path: string; outside: boolean }> {
    const real = await validate(scope, path);
    if (options.permissions === undefined) return { path: real, outside: false };
    const result = await gate.check(real, access);
    if (!result.ok) throw new Refusal(result.error.message);
    return result;
  }

  /**
   * The backend a validated (real) path is read with: the gate's when permission rules are
   * configured, else the backend's no-follow form (no link followed again, so a link swapped in
   * after the check is refused, not followed; see `FileSystem.noFollow`), else the backend.
   * Either way the path is not resolved a second time.
   */
  const reader = (gate: Gate): FileSystem => (options.permissions === undefined ? (fs.noFollow ?? fs) : gate.fs);

  async function readBytes(gate: Gate, scope: McpScope, path: string): Promise<Uint8Array> {
    const exact = options.permissions === undefined ? fs.noFollow : undefined;
    if (exact !== undefined) {
      // The common case in one backend call: a path with no link on the way is its own real
      // path, and the no-follow read refuses any link (checked and used in one step). Anything
      // else (a link, a missing name) takes the full resolution below, with its texts.
      const absolute = absoluteOf(scope, path);
      try {
        return await exact.readFile(absolute);
      } catch (error) {
        if (codeOf(error) === "EISDIR" || codeOf(error) === "ENOTSUP" || !FsError.isInstance(error)) throw error;
      }
    }
    const real = await checked(gate, scope, path, "read");
    return reader(gate).readFile(real.path);
  }

  async function readText(gate: Gate, scope: McpScope, path: string): Promise<string> {
    return decodeNodeUtf8(await readBytes(gate, scope, path));
  }

  /** Write text through the gate while holding the path's lock. */
  async function writeText(gate: Gate, path: string, text: string): Promise<void> {
    await gate.fs.writeFile(path, encodeUtf8(text));
  }

  type Handler = (gate: Gate, scope: McpScope, args: never) => Promise<CallToolResult>;
  const register = (
    name: (typeof FILESYSTEM_SERVER_TOOL_NAMES)[number],
    config: {
      title: string;
      description: string;
      inputSchema: z.ZodRawShape;
      outputSchema: z.ZodRawShape;
      annotations: {
        readOnlyHint: boolean;
        idempotentHint?: boolean;
        destructiveHint?: boolean;
        openWorldHint: boolean;
      };
    },
    handler: Handler,
  ): void => {
    if (readOnly && !config.annotations.readOnlyHint) return;
    server.registerTool(name, config, (async (args: never): Promise<CallToolResult> => {
      const scope = await context.scope();
      if (scope.roots.length === 0) {
        return context.serverRoots.length === 0
          ? errorResult(
              "Access denied - no allowed directories: the server was started without directories and the client gave no MCP roots",
            )
          : noRootsResult(context.serverRoots);
      }
      const gate = gateOf(scope);
      try {
        return await handler(gate, scope, args);
      } catch (error) {
        if (isAbort(error)) throw error;
        return errorResult(messageOf(error));
      }
    }) as never);
  };

  const readTextFile: Handler = async (gate, scope, args: { path: string; head?: number; tail?: number }) => {
    const real = await checked(gate, scope, args.path, "read");
    if (args.head && args.tail) throw new Refusal("Cannot specify both head and tail parameters simultaneously");
    const bytes = await reader(gate).readFile(real.path);
    const content = args.tail
      ? tailLines(bytes, args.tail)
      : args.head
        ? headLines(bytes, args.head)
        : decodeNodeUtf8(bytes);
    return { content: [{ type: "text", text: content }], structuredContent: { content } };
  };
  const readTextInput = {
    path: z.string(),
    tail: z.number().optional().describe("If provided, returns only the last N lines of the file"),
    head: z.number().optional().describe("If provided, returns only the first N lines of the file"),
  };
  register(
    "read_file",
    {
      title: "Read File (Deprecated)",
      description: "Read a whole file as text. Deprecated: use read_text_file.",
      inputSchema: readTextInput,
      outputSchema: TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    readTextFile,
  );
  register(
    "read_text_file",
    {
      title: "Read Text File",
      description:
        "Read a file as UTF-8 text, whatever its extension. `head` gives only the first N lines, " +
        "`tail` only the last N (not both). Paths must lie within the allowed directories.",
      inputSchema: readTextInput,
      outputSchema: TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    readTextFile,
  );

  const mediaBlock = z.union([
    z.object({ type: z.enum(["image", "audio"]), data: z.string(), mimeType: z.string() }),
    z.object({
      type: z.literal("resource"),
      resource: z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
    }),
  ]);
  register(
    "read_media_file",
    {
      title: "Read Media File",
      description:
        "Read a file as base64 with its media type: images and audio as image or audio content, " +
        "anything else as an embedded resource. Paths must lie within the allowed directories.",
      inputSchema: { path: z.string() },
      outputSchema: { content: z.array(mediaBlock) },
      annotations: READ_ONLY,
    },
    async (gate, scope, args: { path: string }) => {
      const real = await checked(gate, scope, args.path, "read");
      const mimeType = MEDIA_TYPES_BY_EXTENSION[extensionOf(real.path)] ?? "application/octet-stream";
      const data = bytesToBase64(await reader(gate).readFile(real.path));
      const block = mimeType.startsWith("image/")
        ? { type: "image" as const, data, mimeType }
        : mimeType.startsWith("audio/")
          ? { type: "audio" as const, data, mimeType }
          : { type: "resource" as const, resource: { uri: fileUri(real.path), mimeType, blob: data } };
      return { content: [block], structuredContent: { content: [block] } };
    },
  );

  register(
    "read_multiple_files",
    {
      title: "Read Multiple Files",
      description:
        "Read several text files in one call; each comes under its path, and a file that fails " +
        "gives its error without stopping the others. Paths must lie within the allowed directories.",
      inputSchema: {
        paths: z.array(z.string()).min(1).describe("The files to read, each within the allowed directories."),
      },
      outputSchema: TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    async (gate, scope, args: { paths: string[] }) => {
      const parts = await Promise.all(
        args.paths.map(async (path) => {
          try {
            return `${path}:\n${await readText(gate, scope, path)}\n`;
          } catch (error) {
            if (isAbort(error)) throw error;
            return `${path}: Error - ${messageOf(error)}`;
          }
        }),
      );
      return textResult(parts.join("\n---\n"));
    },
  );

  register(
    "write_file",
    {
      title: "Write File",
      description:
        "Create a file, or replace an existing one whole, with the given UTF-8 text. " +
        "Paths must lie within the allowed directories.",
      inputSchema: { path: z.string(), content: z.string() },
      outputSchema: TEXT_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
    },
    async (gate, scope, args: { path: string; content: string }) => {
      const real = await checked(gate, scope, args.path, "write");
      // As the official server: the parent directory must exist (nothing is created on the way).
      let parent: FileStat | undefined;
      try {
        parent = await gate.fs.stat(parentPath(real.path));
      } catch (error) {
        if (codeOf(error) !== "ENOENT" && codeOf(error) !== "ENOTDIR") throw error;
      }
      if (parent?.type !== "directory") {
        throw new FsError(parent === undefined ? "ENOENT" : "ENOTDIR", { syscall: "open", path: real.path });
      }
      await locks.run([real.path], () => writeText(gate, real.path, args.content));
      return textResult(`Successfully wrote to ${args.path}`);
    },
  );

  register(
    "edit_file",
    {
      title: "Edit File",
      description:
        "Replace text in a file, edit by edit, and return a unified diff of the change. Each " +
        "oldText must match (exactly, or line by line ignoring surrounding whitespace). With " +
        "dryRun the file is left as it is. Paths must lie within the allowed directories.",
      inputSchema: {
        path: z.string(),
        edits: z.array(
          z.object({
            oldText: z.string().describe("Text to search for - must match exactly"),
            newText: z.string().describe("Text to replace with"),
          }),
        ),
        dryRun: z.boolean().default(false).describe("Preview changes using git-style diff format"),
      },
      outputSchema: TEXT_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false },
    },
    async (gate, scope, args: { path: string; edits: { oldText: string; newText: string }[]; dryRun: boolean }) => {
      const real = await checked(gate, scope, args.path, "read");
      if (!args.dryRun) await checked(gate, scope, args.path, "write");
      return locks.run([real.path], async () => {
        const read = decodeNodeUtf8(await gate.fs.readFile(real.path));
        const before = read.includes("\r") ? read.replace(crlf, "\n") : read;
        const after = applyEdits(before, args.edits);
        // Loaded on the first edit: the diff package is not needed to start the server.
        const { fencedDiff } = await import("./unified-diff.js");
        const diff = fencedDiff(real.path, before, after);
        if (!args.dryRun && after !== before) await writeText(gate, real.path, after);
        return textResult(diff);
      });
    },
  );

  register(
    "create_directory",
    {
      title: "Create Directory",
      description:
        "Create a directory and any missing parents; an existing directory is fine. " +
        "Paths must lie within the allowed directories.",
      inputSchema: { path: z.string() },
      outputSchema: TEXT_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (gate, scope, args: { path: string }) => {
      const real = await checked(gate, scope, args.path, "write");
      await gate.fs.mkdir(real.path, { recursive: true });
      return textResult(`Successfully created directory ${args.path}`);
    },
  );

  const listed = async (gate: Gate, scope: McpScope, path: string) => {
    const real = await checked(gate, scope, path, "list");
    const entries = await gate.fs.readdir(real.path);
    return { real, entries: [...entries].sort((a, b) => compareCodeUnits(a.name, b.name)) };
  };
  register(
    "list_directory",
    {
      title: "List Directory",
      description:
        "List a directory's entries, each marked [DIR] or [FILE]. Paths must lie within the allowed directories.",
      inputSchema: { path: z.string() },
      outputSchema: TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    async (gate, scope, args: { path: string }) => {
      const { entries } = await listed(gate, scope, args.path);
      return textResult(
        entries.map((entry) => `${entry.type === "directory" ? "[DIR]" : "[FILE]"} ${entry.name}`).join("\n"),
      );
    },
  );

  register(
    "list_directory_with_sizes",
    {
      title: "List Directory with Sizes",
      description:
        "List a directory's entries, each marked [DIR] or [FILE], with file sizes and a total, " +
        "sorted by name or by size (largest first). Paths must lie within the allowed directories.",
      inputSchema: {
        path: z.string(),
        sortBy: z.enum(["name", "size"]).optional().default("name").describe("Sort entries by name or size"),
      },
      outputSchema: TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    async (gate, scope, args: { path: string; sortBy: "name" | "size" }) => {
      const { real, entries } = await listed(gate, scope, args.path);
      const detailed = await Promise.all(
        entries.map(async (entry) => {
          const isDirectory = entry.type === "directory";
          try {
            return { name: entry.name, isDirectory, size: (await gate.fs.stat(joinPath(real.path, entry.name))).size };
          } catch (error) {
            if (isAbort(error)) throw error;
            return { name: entry.name, isDirectory, size: 0 };
          }
        }),
      );
      const sorted = [...detailed].sort((a, b) =>
        args.sortBy === "size" ? b.size - a.size : a.name.localeCompare(b.name),
      );
      const lines = sorted.map(
        (entry) =>
          `${entry.isDirectory ? "[DIR]" : "[FILE]"} ${entry.name.padEnd(30)} ${entry.isDirectory ? "" : formatSize(entry.size).padStart(10)}`,
      );
      const files = detailed.filter((entry) => !entry.isDirectory);
      const total = files.reduce((sum, entry) => sum + entry.size, 0);
      lines.push(
        "",
        `Total: ${files.length} files, ${detailed.length - files.length} directories`,
        `Combined size: ${formatSize(total)}`,
      );
      return textResult(lines.join("\n"));
    },
  );

  interface TreeEntry {
    name: string;
    type: "file" | "directory";
    children?: TreeEntry[];
  }
  register(
    "directory_tree",
    {
      title: "Directory Tree",
      description:
        "A recursive tree of a directory as JSON (2-space indents): each entry has name and type " +
        "(file or directory), directories a children array. excludePatterns are globs on paths " +
        "relative to the given directory; a pattern without * also excludes that name anywhere. " +
        "Paths must lie within the allowed directories.",
      inputSchema: { path: z.string(), excludePatterns: z.array(z.string()).optional().default([]) },
      outputSchema: TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    async (gate, scope, args: { path: string; excludePatterns: string[] }) => {
      const matchers = args.excludePatterns.map((pattern) => {
        const matches = picomatch(pattern.includes("*") ? [pattern] : [pattern, `**/${pattern}`, `**/${pattern}/**`], {
          dot: true,
        });
        // `dir/**` leaves `dir` itself in (empty), as minimatch does; picomatch would take it out.
        const kept = pattern.endsWith("/**") ? pattern.slice(0, -3) : undefined;
        return (path: string) => path !== kept && matches(path);
      });
      const root = await checked(gate, scope, args.path, "list");
      // A path a listDir deny rule hides is left out (and not entered), as the gate's readdir does.
      const source = walkSource(gate, root);
      const fs: FileSystem = source.fs;
      const build = async (directory: string, relative: string): Promise<TreeEntry[]> => {
        const entries = [...(await fs.readdir(directory))].sort((a, b) => compareCodeUnits(a.name, b.name));
        const out: Promise<TreeEntry>[] = [];
        for (const entry of entries) {
          const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
          if (matchers.some((matches) => matches(path))) continue;
          if (source.include !== undefined && !source.include(joinPath(directory, entry.name))) continue;
          // Subdirectories are read at once; the entries keep their order.
          out.push(
            entry.type === "directory"
              ? build(joinPath(directory, entry.name), path).then((children) => ({
                  name: entry.name,
                  type: "directory" as const,
                  children,
                }))
              : Promise.resolve({ name: entry.name, type: "file" as const }),
          );
        }
        return Promise.all(out);
      };
      return textResult(JSON.stringify(await build(root.path, ""), null, 2));
    },
  );

  register(
    "move_file",
    {
      title: "Move File",
      description:
        "Move or rename a file or directory. Fails when the destination exists. Both paths must " +
        "lie within the allowed directories.",
      inputSchema: { source: z.string(), destination: z.string() },
      outputSchema: TEXT_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false },
    },
    async (gate, scope, args: { source: string; destination: string }) => {
      const from = await checked(gate, scope, args.source, "write");
      const to = await checked(gate, scope, args.destination, "write");
      await locks.run([from.path, to.path], async () => {
        let exists = true;
        try {
          await gate.fs.lstat(to.path);
        } catch (error) {
          if (!FsError.isInstance(error) || error.code !== "ENOENT") throw error;
          exists = false;
        }
        if (exists) throw new Refusal(`Destination already exists: ${to.path}`);
        await gate.fs.rename(from.path, to.path);
      });
      return textResult(`Successfully moved ${args.source} to ${args.destination}`);
    },
  );

  register(
    "search_files",
    {
      title: "Search Files",
      description:
        "Find files and directories under a directory whose path relative to it matches a glob " +
        "('*.ts' at the top level, '**/*.ts' at any depth); excludePatterns are globs too. " +
        "Gives full paths, one a line. Searches only within the allowed directories.",
      inputSchema: {
        path: z.string(),
        pattern: z.string(),
        excludePatterns: z.array(z.string()).optional().default([]),
      },
      outputSchema: TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    async (gate, scope, args: { path: string; pattern: string; excludePatterns: string[] }) => {
      const root = await checked(gate, scope, args.path, "list");
      // A NUL byte matches no name (the official server's minimatch finds nothing).
      const matches = args.pattern.includes("\0") ? () => false : picomatch(args.pattern, { dot: true });
      const excluded = args.excludePatterns.length === 0 ? () => false : picomatch(args.excludePatterns, { dot: true });
      const found: string[] = [];
      const prefix = root.path === "/" ? "/" : `${root.path}/`;
      const source = walkSource(gate, root);
      await walkFiles({
        fs: source.fs,
        root: root.path,
        concurrency: DEFAULT_WALK_CONCURRENCY,
        include: source.include,
        enterDirectory: (relative) => {
          if (relative === "") return true;
          if (excluded(relative)) return false;
          if (matches(relative)) found.push(prefix + relative);
          return true;
        },
        onEntry: async (path, relative, entry) => {
          if (excluded(relative) || !matches(relative)) return;
          // As the official server: a link whose target is missing or outside is left out.
          if (entry.type === "symlink") {
            try {
              if (!inRoots(scope.roots, await fs.realpath(path))) return;
            } catch {
              return;
            }
          }
          found.push(prefix + relative);
        },
      });
      found.sort(compareCodeUnits);
      const note = deniedNote(source.denied);
      const text = found.length > 0 ? found.join("\n") : "No matches found";
      return textResult(note === undefined ? text : `${text}\n${note}`);
    },
  );

  register(
    "get_file_info",
    {
      title: "Get File Info",
      description:
        "A file's or directory's metadata: size, times, type and permissions, without reading it. " +
        "Paths must lie within the allowed directories.",
      inputSchema: { path: z.string() },
      outputSchema: TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    async (gate, scope, args: { path: string }) => {
      const real = await checked(gate, scope, args.path, "read");
      const stat = await gate.fs.stat(real.path);
      const modified = new Date(stat.mtimeMs);
      const info = {
        size: stat.size,
        created: stat.birthtimeMs === undefined ? modified : new Date(stat.birthtimeMs),
        modified,
        accessed: stat.atimeMs === undefined ? modified : new Date(stat.atimeMs),
        isDirectory: stat.type === "directory",
        isFile: stat.type === "file",
        permissions: stat.mode === undefined ? "unknown" : stat.mode.toString(8).slice(-3),
      };
      return textResult(
        Object.entries(info)
          .map(([key, value]) => `${key}: ${String(value)}`)
          .join("\n"),
      );
    },
  );

  register(
    "list_allowed_directories",
    {
      title: "List Allowed Directories",
      description:
        "The directories this server may use; everything below them is usable too. Call it " +
        "first to know where files can be read and written.",
      inputSchema: {},
      outputSchema: TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    async (_gate, scope) => textResult(`Allowed directories:\n${scope.roots.join("\n")}`),
  );
}
