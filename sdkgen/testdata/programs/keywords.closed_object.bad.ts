// A key that additionalProperties: false rules out: must not compile.
async function main(): Promise<void> {
  await tools.kw_objects({ closed: { a: "x", b: 1 }, typed_extra: { a: "x" } });
}
