// Browser stand-in for `node:stream` inside the memfs bundle. memfs only needs `Readable` and
// `Writable` to exist when it loads (its file streams inherit from them); the backend never
// uses streams, so constructing one says plainly that streams are not part of the browser build.
function unavailable(name) {
  return function StreamUnavailable() {
    throw new Error(`${name} streams are not available in the browser build of better-fs-tools/memory`);
  };
}
export const Readable = unavailable("Readable");
export const Writable = unavailable("Writable");
