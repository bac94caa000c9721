/**
 * `better-fs-tools/unstorage`: a workspace on any unstorage `Storage` ({@link unstorageFileSystem}):
 * memory, Redis, S3, Azure, Cloudflare KV/R2, Vercel, MongoDB and the rest of unstorage's drivers.
 * Needs the optional peer `unstorage`. Runs wherever the chosen driver runs.
 *
 * @module
 */
export {
  UNSTORAGE_FILE_SYSTEM_NAME,
  UNSTORAGE_TREE_CONCURRENCY,
  type UnstorageFileSystem,
  unstorageFileSystem,
  type UnstorageFileSystemOptions,
} from "./file-system.js";
