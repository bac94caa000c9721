/**
 * `node:zlib` for just-bash's browser build, on fflate: the `gzip`, `gunzip`, `zcat` and `rg -z`
 * commands call `gzipSync`/`gunzipSync` with a `level` and a `maxOutputLength`. Without this
 * module Vite stubs `node:zlib` out and those commands fail in the browser.
 *
 * just-bash 3.4.2's browser build also calls the global `Buffer` when it prints gunzipped data
 * (`gunzip -c`, `zcat`), which browsers lack: this module (loaded with just-bash, on the first
 * command) installs the `buffer` package's `Buffer` as a global where there is none.
 *
 * @module
 */
import { Buffer } from "buffer";
import { gunzipSync as fflateGunzip, gzipSync as fflateGzip } from "fflate";

const scope = globalThis as { Buffer?: unknown };
scope.Buffer ??= Buffer;

/** The compression-level constants just-bash reads. */
export const constants = Object.freeze({ Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1 });

/** Compression level fflate uses for Z_DEFAULT_COMPRESSION (as zlib does). */
const DEFAULT_LEVEL = 6;

interface ZlibOptions {
  readonly level?: number;
  /** Largest output allowed, in bytes; larger output throws as Node does. */
  readonly maxOutputLength?: number;
}

type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

function capped(output: Uint8Array, options: ZlibOptions): Uint8Array {
  if (options.maxOutputLength !== undefined && output.byteLength > options.maxOutputLength) {
    throw new RangeError(`Cannot create a Buffer larger than ${options.maxOutputLength} bytes`);
  }
  return output;
}

function bytes(data: Uint8Array | ArrayBuffer | string): Uint8Array {
  if (typeof data === "string") return new TextEncoder().encode(data);
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

/** Gzip `data` at `level` (0-9, or -1 for the default). */
export function gzipSync(data: Uint8Array | ArrayBuffer | string, options: ZlibOptions = {}): Uint8Array {
  const level = options.level === undefined || options.level < 0 ? DEFAULT_LEVEL : Math.min(9, Math.max(0, Math.round(options.level)));
  return capped(fflateGzip(bytes(data), { level: level as Level }), options);
}

/** Gunzip `data`; throws for data that is not gzip. */
export function gunzipSync(data: Uint8Array | ArrayBuffer | string, options: ZlibOptions = {}): Uint8Array {
  return capped(fflateGunzip(bytes(data)), options);
}

export default { constants, gzipSync, gunzipSync };
