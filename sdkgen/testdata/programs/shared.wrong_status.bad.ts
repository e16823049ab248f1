// A status the shared result type does not have: must not compile.
async function main(): Promise<boolean> {
  const s = await tools.job_status({ job_id: "1" });
  return s.status === "paused";
}
