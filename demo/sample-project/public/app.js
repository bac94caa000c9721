const list = document.querySelector("#todos");
const form = document.querySelector("#new-todo");

async function render() {
  const todos = await (await fetch("/todos")).json();
  list.replaceChildren(
    ...todos.map((todo) => {
      const item = document.createElement("li");
      item.textContent = todo.title;
      item.className = todo.done ? "done" : "";
      return item;
    }),
  );
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const title = new FormData(form).get("title");
  await fetch("/todos", { method: "POST", body: JSON.stringify({ title }) });
  form.reset();
  await render();
});

render();
