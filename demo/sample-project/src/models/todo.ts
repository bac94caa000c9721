export interface Todo {
  readonly id: string;
  readonly title: string;
  readonly done: boolean;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

export type NewTodo = Pick<Todo, "title">;
export type TodoPatch = Partial<Pick<Todo, "title" | "done">>;
