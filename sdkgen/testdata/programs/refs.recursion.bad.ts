// A wrong type deep inside a recursive structure: must not compile.
async function main(): Promise<void> {
  await tools.tree({ root: { value: 1, children: [{ value: 2, children: [{ value: "three" }] }] } });
}
