/// <reference types="vite/client" />
// Vite's client types (import.meta.glob, CSS imports) for the browser tests and the demo, in tsconfig.check.json.
