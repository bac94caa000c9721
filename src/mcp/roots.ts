/**
 * MCP roots: the directories a client says it works in, turned into the server's allowed
 * roots. A client can only narrow what the server was given, never widen it.
 *
 * @module
 */
import { isWithin, resolvePath } from "../contract/path.js";

/** One root as the client lists it (`roots/list`): a URI and an optional name. */
export interface McpRoot {
  readonly uri: string;
  readonly name?: string;
}

/**
 * The absolute path of a `file://` root URI, or `undefined` for another scheme, a host other
 * than empty or `localhost`, or a malformed URI. Percent-escapes are decoded; `.` and `..` are
 * resolved lexically. A NUL byte in the decoded path gives `undefined`.
 *
 * @param uri - the root's URI as the client sent it.
 * @returns an absolute POSIX path in the backend's namespace, or `undefined`.
 * @example
 * ```ts
 * rootPathOf("file:///home/me/project"); // "/home/me/project"
 * rootPathOf("file:///a%20b/../c"); // "/c"
 * rootPathOf("https://example.com/x"); // undefined
 * ```
 */
export function rootPathOf(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== "file:" || (url.hostname !== "" && url.hostname !== "localhost")) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (path.includes("\0") || !path.startsWith("/")) return undefined;
  return resolvePath("/", path);
}

/**
 * The allowed roots once the client's roots are applied: every client root that lies inside a
 * server root (it narrows that root), and every server root that lies inside a client root (the
 * client asked for more than the server has: the server root stays as it is). Roots the server
 * does not cover are dropped, so the result never reaches past `serverRoots`. Sorted, without
 * duplicates or roots nested in another of the list.
 *
 * @param serverRoots - the roots the server was created with (absolute, normalised).
 * @param clientRoots - the client's roots as paths (see {@link rootPathOf}).
 * @returns the narrowed roots; empty when the two share nothing (every call is then refused).
 * @example
 * ```ts
 * narrowRoots(["/w"], ["/w/src", "/etc"]); // ["/w/src"]
 * narrowRoots(["/w/a", "/w/b"], ["/w"]); // ["/w/a", "/w/b"]
 * narrowRoots(["/w"], ["/x"]); // []
 * ```
 */
export function narrowRoots(serverRoots: readonly string[], clientRoots: readonly string[]): string[] {
  const found = new Set<string>();
  for (const client of clientRoots) {
    for (const server of serverRoots) {
      if (isWithin(server, client)) found.add(client);
      else if (isWithin(client, server)) found.add(server);
    }
  }
  const sorted = [...found].sort();
  return sorted.filter((root) => !sorted.some((other) => other !== root && isWithin(other, root)));
}
