// Summarise go.mod: the module, the Go version and the dependencies.
const mod = await tools.read({ file_path: "go.mod" });
const text = mod.lines.map((l) => l.text).join("\n");
const module = text.match(/^module\s+(?<name>\S+)/m)?.groups?.name;
const goVersion = text.match(/^go\s+(?<v>\S+)/m)?.groups?.v;
const deps = [...text.matchAll(/^\s+(?<path>\S+)\s+(?<version>v\S+)(?<indirect>\s+\/\/ indirect)?/gm)].map((m) => ({
  path: m.groups!.path,
  version: m.groups!.version,
  direct: !m.groups!.indirect,
}));
const { stdout } = await tools.bash({ command: "wc -l go.sum", description: "Count go.sum lines" });
console.log(`${module} (go ${goVersion}): ${deps.length} requirements, go.sum ${stdout.trim()}`);
return deps.map((d) => `${d.direct ? "direct  " : "indirect"}  ${d.path} ${d.version}`).join("\n");
