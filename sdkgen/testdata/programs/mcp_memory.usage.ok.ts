// The MCP memory server's tools: must compile.
async function main(): Promise<number> {
  const made = await tools.create_entities({ entities: [{ name: "Go", entityType: "language", observations: ["fast"] }] });
  await tools.create_relations({ relations: [{ from: "Go", to: "Rob", relationType: "designed_by" }] });
  return made.entities.length;
}
