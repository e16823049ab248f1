// A mode the shared escalation union does not have: must not compile.
async function main(): Promise<void> {
  await tools.job_stop({ mode: "network" });
}
