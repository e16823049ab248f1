// A missing required field: must not compile.
async function main(): Promise<void> {
  await tools.edit({ file_path: "a.go", old_string: "x" });
}
