// Browser stand-in for `node:url` inside the memfs bundle: memfs only takes `URL`, a web global.
export const URL = globalThis.URL;
