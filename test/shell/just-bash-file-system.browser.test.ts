import { justBashFileSystem } from "../../src/shell/just-bash-file-system.js";
import { testFileSystem } from "better-fs-tools/conformance";

// just-bash's browser build: the default InMemoryFs, loaded on first call.
testFileSystem({ name: "just-bash InMemoryFs (chromium)", create: async () => justBashFileSystem() });
