// Recursive types stay recursive: must compile.
async function main(): Promise<number> {
  const root: ToolTypes.Node = { value: 1, children: [{ value: 2, children: [{ value: 3, parent: null }] }] };
  const out = await tools.tree({ root, self: { legacy: { label: "x" } }, escaped: "s" });
  const deep: number | undefined = out.children?.[0]?.children?.[0]?.value;
  const q = await tools.pydantic_style({ filter: { and: [{ field: "a", equals: null }, { and: [] }] } });
  const cells = q.result?.cells ?? [];
  return (deep ?? 0) + cells.length;
}
