// Nullable, tuples, typed extra keys and literal unions: must compile.
async function main(): Promise<void> {
  await tools.kw_nullable({ name: null, tags: null });
  await tools.kw_arrays({ pair: ["a", 1], pair_min: ["a"], head_rest: ["x", true, false], draft4_rest: [1, "a", "b"] });
  await tools.kw_objects({ closed: {}, typed_extra: { a: "x", extra: 5 }, patterned: { "x-a": "s" } });
  await tools.kw_enum_const({ color: "dark blue", level: 3.5, flag: null, mixed: { k: "v" }, fixed: "v1", unit: "C" });
  await tools.kw_unions({ one: { kind: "square", side: 2 }, all_and_any: { id: "i", y: 1 } });
  await tools.kw_names({ "dash-name": "d", from: "f", class: 1, delete: true });
}
