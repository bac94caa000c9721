// Entries that get a browser bundle (dist/<entry>.browser.js, the "browser" export condition),
// and the libraries bundled into it. Only libraries that need Node built-ins belong here.
// just-bash's browser build imports node:zlib and uses a global Buffer: its loader module
// (imported by ./shell, the root entry's bash tool, ./ai-sdk and ./sandbox) gets a browser form with
// just-bash and those stand-ins bundled in, still behind its dynamic import() so that just-bash
// stays in a chunk of its own, loaded on the first command.
export const BROWSER_BUNDLES = [
  { subpath: "./memory", entry: "backends/memory/index", bundle: ["memfs"] },
  { subpath: "./shell", entry: "shell/just-bash-module", bundle: ["just-bash"] },
  // isomorphic-git (and the sha.js/safe-buffer it uses) wants Node's buffer: its loader gets the
  // `buffer` package bundled in, still behind its dynamic import(), loaded on the first `git`.
  { subpath: "./shell", entry: "shell/git/load", bundle: ["isomorphic-git", "buffer"] },
];
