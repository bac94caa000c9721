/**
 * The IndexedDB side of `idbFileSystem`: one object store of per-path records, read in one
 * transaction on load and changed in one transaction per flush (all of a flush lands, or none).
 * The database is opened through idb-keyval's `createStore`, imported on first use.
 *
 * @module
 */
import type { UseStore } from "idb-keyval";

/** One stored path. Keys are absolute paths; the root itself is never stored. */
export type IdbRecord =
  | { readonly kind: "file"; readonly data: Uint8Array; readonly mode: number; readonly mtimeMs: number }
  | { readonly kind: "directory"; readonly mode: number; readonly mtimeMs: number }
  | { readonly kind: "symlink"; readonly target: string };

/** idb-keyval's `createStore`: opens (or creates) database `dbName` with one object store `storeName`. */
export type CreateStore = (dbName: string, storeName: string) => UseStore;

/** The records of a workspace: load them all, or commit a batch of changes atomically. */
export interface IdbRecords {
  /** Every record, in one read-only transaction. */
  load(): Promise<Map<string, IdbRecord>>;
  /** Delete then put, in one read-write transaction; rejects (and changes nothing) if any part fails. */
  commit(deletes: readonly string[], puts: ReadonlyMap<string, IdbRecord>): Promise<void>;
}

function done(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = transaction.onerror = () =>
      reject(transaction.error ?? new DOMException("transaction aborted", "AbortError"));
  });
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** What a missing idb-keyval (an optional peer) is reported as, after the loader's own message. */
export const IDB_KEYVAL_MISSING_HINT =
  "install it (npm i idb-keyval; an optional peer of better-fs-tools), or pass idbFileSystem the createStore option";

/** idb-keyval's `createStore`, imported on first use; a failed import names the remedy. */
function importCreateStore(): Promise<CreateStore> {
  return import("idb-keyval").then(
    (lib) => lib.createStore,
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`idb-keyval could not be loaded (${reason}); ${IDB_KEYVAL_MISSING_HINT}`, { cause: error });
    },
  );
}

/**
 * Records in an IndexedDB object store.
 *
 * @param dbName - database name.
 * @param storeName - object store name (one store per database, as idb-keyval creates it).
 * @param createStore - idb-keyval's `createStore`, or a promise of it; default: `import("idb-keyval")` on first use.
 * @returns the records; where idb-keyval cannot be imported, `load` and `commit` reject with an
 *   Error naming {@link IDB_KEYVAL_MISSING_HINT} (retried on the next call).
 */
export function idbRecords(dbName: string, storeName: string, createStore?: CreateStore): IdbRecords {
  let storePromise: Promise<UseStore> | undefined;
  function store(): Promise<UseStore> {
    if (storePromise === undefined) {
      storePromise = (createStore === undefined ? importCreateStore() : Promise.resolve(createStore)).then((create) =>
        create(dbName, storeName),
      );
      storePromise.catch(() => {
        storePromise = undefined;
      });
    }
    return storePromise;
  }
  return {
    async load() {
      const use = await store();
      return use("readonly", async (objectStore) => {
        const [keys, values] = await Promise.all([request(objectStore.getAllKeys()), request(objectStore.getAll())]);
        const records = new Map<string, IdbRecord>();
        keys.forEach((key, index) => records.set(String(key), values[index] as IdbRecord));
        return records;
      });
    },
    async commit(deletes, puts) {
      const use = await store();
      await use("readwrite", (objectStore) => {
        const finished = done(objectStore.transaction);
        try {
          for (const key of deletes) objectStore.delete(key);
          for (const [key, record] of puts) objectStore.put(record, key);
        } catch (error) {
          objectStore.transaction.abort();
          return finished.then(
            () => Promise.reject(error),
            () => Promise.reject(error),
          );
        }
        return finished;
      });
    },
  };
}
