import { validateNewTodo, validatePatch } from "../lib/validate.js";
import type { Todo } from "../models/todo.js";
import type { TodoStore } from "../store/todo-store.js";

export function todoRoutes(store: TodoStore) {
  return {
    list: (): Promise<Todo[]> => store.all(),
    create: (body: unknown): Promise<Todo> => store.add(validateNewTodo(body)),
    update: (id: string, body: unknown): Promise<Todo> => store.update(id, validatePatch(body)),
    remove: (id: string): Promise<void> => store.remove(id),
  };
}
