import { createServer } from "node:http";
import { createApp } from "./app.js";
import { loadConfig } from "./config.js";
import { logger } from "./lib/logger.js";
import { MemoryTodoStore } from "./store/memory-store.js";

const config = loadConfig(process.env);
const app = createApp({ store: new MemoryTodoStore() });

createServer(app).listen(config.port, () => {
  logger.info("listening", { port: config.port });
});
