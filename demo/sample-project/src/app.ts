import type { IncomingMessage, ServerResponse } from "node:http";
import { readJson, sendJson, sendError } from "./lib/http.js";
import { healthRoute } from "./routes/health.js";
import { todoRoutes } from "./routes/todos.js";
import type { TodoStore } from "./store/todo-store.js";

export interface AppOptions {
  readonly store: TodoStore;
}

export function createApp({ store }: AppOptions) {
  const todos = todoRoutes(store);
  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    try {
      if (url.pathname === "/health") return sendJson(res, 200, healthRoute());
      if (url.pathname === "/todos" && req.method === "GET") return sendJson(res, 200, await todos.list());
      if (url.pathname === "/todos" && req.method === "POST") {
        return sendJson(res, 201, await todos.create(await readJson(req)));
      }
      const match = /^\/todos\/([\w-]+)$/.exec(url.pathname);
      if (match && req.method === "PATCH") return sendJson(res, 200, await todos.update(match[1]!, await readJson(req)));
      if (match && req.method === "DELETE") {
        await todos.remove(match[1]!);
        res.writeHead(204).end();
        return;
      }
      sendError(res, 404, "not found");
    } catch (error) {
      sendError(res, 400, error instanceof Error ? error.message : String(error));
    }
  };
}
