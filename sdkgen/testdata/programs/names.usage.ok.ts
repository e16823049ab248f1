// Odd tool names are reached verbatim: must compile.
async function main(): Promise<void> {
  await tools["my-mcp.tool"]({ x: "a" });
  await tools.my_mcp_tool({ y: "b" });
  await tools.delete();
  await tools.class({ from: "x" });
  await tools["with space"]();
  await tools["123go"]({});
  await tools.Error({ e: { message: "m" }, n: "node", j: 1 });
}
