// Correct use of the built-in tools: must compile.
async function main(): Promise<string> {
  const file = await tools.read({ file_path: "go.mod", limit: 20 });
  const lines: number = file.total_lines;
  const found = await tools.grep({ pattern: "func main", "-i": true, output_mode: "content" });
  let where = "";
  for (const m of found.matches ?? []) {
    where += `${m.file}:${m.line} ${m.text}\n`;
  }
  try {
    const run = await tools.bash({ command: "go test ./...", timeout_ms: 60000 });
    where += run.exit_code;
  } catch (e) {
    if (e instanceof ToolCallError) {
      return `${e.toolName} failed with ${e.code}: ${e.message}`;
    }
    throw e;
  }
  const [goFiles, docs] = await Promise.all([tools.glob({ pattern: "**/*.go" }), tools.glob({ pattern: "*.md" })]);
  await tools.todo_write({ todos: [{ id: "1", content: "fix", status: "in_progress" }] });
  const edited = await tools.edit({ file_path: "a.go", old_string: "x", new_string: "y" });
  return file.content + lines + goFiles.files.length + docs.truncated + edited.replacements;
}
