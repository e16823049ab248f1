// A missing required field in an MCP tool: must not compile.
async function main(): Promise<void> {
  await tools.create_relations({ relations: [{ from: "Go", to: "Rob" }] });
}
