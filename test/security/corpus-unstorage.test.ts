/** The attack corpus through every target (core and tools) on unstorage's memory driver. */
import { UNSTORAGE_MEMORY_BACKEND, runStoreCorpus } from "./store-backends.js";

runStoreCorpus(UNSTORAGE_MEMORY_BACKEND);
