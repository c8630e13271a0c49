export default async function globalTeardown() {
  await globalThis.__MPTW_PG__?.stop()
}
