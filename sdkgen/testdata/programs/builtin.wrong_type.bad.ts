// A wrong argument type: must not compile.
async function main(): Promise<void> {
  await tools.read({ file_path: 42 });
}
