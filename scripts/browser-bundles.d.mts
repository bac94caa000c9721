/** Entries that get a browser bundle, and the libraries bundled into it. */
export declare const BROWSER_BUNDLES: readonly { subpath: string; entry: string; bundle: readonly string[] }[];
