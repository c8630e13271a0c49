export default async function globalTeardown() {
  await (globalThis as { __MPTW_PG__?: { stop(): Promise<void> } }).__MPTW_PG__?.stop()
}
