// A misspelled tool: must not compile.
async function main(): Promise<void> {
  await tools.raed({ file_path: "a.go" });
}
