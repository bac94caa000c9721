let counter = 0;

/** Short, sortable ids: time in base 36 plus a counter. */
export function newId(): string {
  counter = (counter + 1) % 1296;
  return `${Date.now().toString(36)}-${counter.toString(36).padStart(2, "0")}`;
}
