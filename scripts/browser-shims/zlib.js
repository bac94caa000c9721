// Browser stand-in for `node:zlib` inside the just-bash bundle (dist/shell/just-bash-module.browser.js),
// on fflate: just-bash's `gzip`, `gunzip`, `zcat` and `rg -z` call `gzipSync`/`gunzipSync` with a
// `level` and a `maxOutputLength`.
//
// just-bash 3.4's browser build also calls the global `Buffer` when it prints gunzipped data
// (`gunzip -c`, `zcat`), which browsers lack: this module, which is loaded with just-bash (on the
// first command, in just-bash's own chunk), installs the `buffer` package's `Buffer` as a global
// where there is none. Pages that never run bash never load it.
import { Buffer } from "buffer";
import { gunzipSync as fflateGunzip, gzipSync as fflateGzip } from "fflate";

globalThis.Buffer ??= Buffer;

/** The compression-level constants just-bash reads. */
export const constants = Object.freeze({ Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1 });

/** Compression level fflate uses for Z_DEFAULT_COMPRESSION (as zlib does). */
const DEFAULT_LEVEL = 6;

function capped(output, options) {
  if (options.maxOutputLength !== undefined && output.byteLength > options.maxOutputLength) {
    throw new RangeError(`Cannot create a Buffer larger than ${options.maxOutputLength} bytes`);
  }
  return output;
}

function bytes(data) {
  if (typeof data === "string") return new TextEncoder().encode(data);
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

/** Gzip `data` at `options.level` (0-9, or -1 for the default 6). */
export function gzipSync(data, options = {}) {
  const level =
    options.level === undefined || options.level < 0
      ? DEFAULT_LEVEL
      : Math.min(9, Math.max(0, Math.round(options.level)));
  return capped(fflateGzip(bytes(data), { level }), options);
}

/** Gunzip `data`; throws for data that is not gzip. */
export function gunzipSync(data, options = {}) {
  return capped(fflateGunzip(bytes(data)), options);
}

export default { constants, gzipSync, gunzipSync };
