// Treating a result field as the wrong type: must not compile.
async function main(): Promise<void> {
  const r = await tools.read({ file_path: "a" });
  const n: number = r.content;
}
