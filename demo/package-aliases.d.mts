/** Vite `resolve.alias` entries: each subpath of the package's exports map (`better-fs-tools/opfs`...) → its source in src/. */
export declare const PACKAGE_ALIASES: Array<{ find: RegExp; replacement: string }>;
