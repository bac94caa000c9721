import { justBashFileSystem } from "../../src/shell/just-bash-file-system.js";
import { testFileSystem } from "../../src/conformance/index.js";

// just-bash's browser build: the default InMemoryFs, loaded on first call.
testFileSystem({ name: "just-bash InMemoryFs (chromium)", create: async () => justBashFileSystem() });
