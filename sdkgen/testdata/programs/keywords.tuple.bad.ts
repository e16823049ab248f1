// A tuple element of the wrong type: must not compile.
async function main(): Promise<void> {
  await tools.kw_arrays({ head_rest: [1, true] });
}
