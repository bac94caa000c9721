/** Vite `resolve.alias` entries: Node built-in (with or without `node:`) → browser module. */
export declare const BROWSER_ALIASES: { find: RegExp; replacement: string }[];
