// The MCP filesystem server's tools: must compile.
async function main(): Promise<string> {
  const r = await tools.read_text_file({ path: "README.md", head: 10 });
  await tools.edit_file({ path: "a.txt", edits: [{ oldText: "a", newText: "b" }], dryRun: true });
  return r.content;
}
