import { UNSTORAGE_MEMORY_BACKEND } from "./store-backends.js";
import { runSecurityCorpus } from "./corpus.js";
import { CORE_TARGETS } from "./targets.js";
const t = CORE_TARGETS[0]!;
runSecurityCorpus({ name: t.name, backend: UNSTORAGE_MEMORY_BACKEND.backend, target: t.target });
