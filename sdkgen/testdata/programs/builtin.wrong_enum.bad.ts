// An enum value the schema does not allow: must not compile.
async function main(): Promise<void> {
  await tools.todo_write({ todos: [{ id: "1", content: "x", status: "done" }] });
}
