/**
 * OPFS test setup shared by the browser tests: remove a directory of the origin, or start from
 * an empty one.
 */

/** Remove a directory under the origin's OPFS root (`name`, `/name` or `/a/b`), if it exists. */
export async function wipe(path: string): Promise<void> {
  const parts = path.split("/").filter((part) => part !== "");
  let parent = await navigator.storage.getDirectory();
  try {
    for (const part of parts.slice(0, -1)) parent = await parent.getDirectoryHandle(part);
    await parent.removeEntry(parts[parts.length - 1] as string, { recursive: true });
  } catch (error) {
    if (!(error instanceof DOMException && error.name === "NotFoundError")) throw error;
  }
}

/** A directory of the origin (`name`), wiped and created again: empty. */
export async function freshDirectory(name: string): Promise<FileSystemDirectoryHandle> {
  await wipe(name);
  return (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true });
}
