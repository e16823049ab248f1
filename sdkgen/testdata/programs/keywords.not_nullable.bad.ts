// null where the schema does not allow it: must not compile.
async function main(): Promise<void> {
  await tools.kw_enum_const({ color: "red", level: 1, flag: true, mixed: "a", fixed: "v1", unit: null });
}
