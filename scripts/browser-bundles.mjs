// Entries that get a browser bundle (dist/<entry>.browser.js, the "browser" export condition),
// and the libraries bundled into it. Only libraries that need Node built-ins belong here.
export const BROWSER_BUNDLES = [{ subpath: "./memory", entry: "fs/memory", bundle: ["memfs"] }];
