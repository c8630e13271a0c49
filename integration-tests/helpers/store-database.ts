import { execFile } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { promisify } from "node:util"
import pg from "pg"

/**
 * Databases of this repository's store: migrated (for the store test runner,
 * store-runner.ts) or migrated and seeded by scripts/demo/seed.ts (for tests
 * that run Medusa in processes of its own, the production profile). Migrating
 * costs most of a start-up, so it happens once per schema: into a template
 * database, which each test file then copies (`create database … template …`,
 * well under a second).
 */

const run = promisify(execFile)
const ROOT = process.cwd()
/** Serialises template builds between jest workers. */
const TEMPLATE_LOCK = 727_274_001

/** A one-off `medusa` command (migrations, seed); in server mode, so it never consumes queued events. */
export async function medusaCommand(args: string[], env: NodeJS.ProcessEnv) {
  try {
    await run(process.execPath, ["node_modules/@medusajs/cli/cli.js", ...args], {
      cwd: ROOT,
      env: { ...env, MEDUSA_WORKER_MODE: "server" },
      maxBuffer: 64 * 1024 * 1024,
    })
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string }
    throw new Error(`medusa ${args.join(" ")} failed:\n${(stdout + stderr).split("\n").slice(-30).join("\n")}`)
  }
}

/** The PostgreSQL the jest global setup gave us (DB_* variables), without a database name. */
function serverUrl(): string {
  const { DB_HOST = "localhost", DB_PORT, DB_USERNAME, DB_PASSWORD = "" } = process.env
  if (!DB_PORT || !DB_USERNAME) {
    throw new Error("store-database: DB_PORT and DB_USERNAME must be set (integration-tests/setup/pg-global-setup.ts sets them)")
  }
  return `postgres://${encodeURIComponent(DB_USERNAME)}:${encodeURIComponent(DB_PASSWORD)}@${DB_HOST}:${DB_PORT}`
}

async function filesUnder(dir: string, keep: (path: string) => boolean): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter(keep)
    .sort()
}

/**
 * What the schema and the seed depend on: installed versions, the config, the
 * seed, and the plugin's own migrations and links. A change gives a new template,
 * so a PostgreSQL of your own (DB_*) never hands a test a stale one.
 */
async function schemaKey(): Promise<string> {
  const files = [
    join(ROOT, "package-lock.json"),
    join(ROOT, "medusa-config.ts"),
    join(ROOT, "scripts/demo/seed.ts"),
    ...(await filesUnder("src", (path) => /[/\\](migrations|links)[/\\]/.test(path))),
  ]
  const hash = createHash("sha256")
  for (const file of files) {
    hash.update(file).update(await readFile(file).catch(() => Buffer.alloc(0)))
  }
  return hash.digest("hex").slice(0, 16)
}

const exists = async (admin: pg.Client, name: string) => Boolean((await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount)

/**
 * Builds `template` once (under another name, renamed when complete, so a
 * failed build never becomes the template), then copies it into `name`.
 * Serialised between jest workers and suites by an advisory lock.
 */
async function copyOfTemplate(template: string, name: string, build: (url: string) => Promise<void>): Promise<boolean> {
  const server = serverUrl()
  const admin = new pg.Client({ connectionString: `${server}/postgres` })
  await admin.connect()
  let built = false
  try {
    await admin.query("select pg_advisory_lock($1)", [TEMPLATE_LOCK])
    if (!(await exists(admin, template))) {
      const building = `${template}_building`
      await admin.query(`drop database if exists "${building}" with (force)`)
      await admin.query(`create database "${building}"`)
      await build(`${server}/${building}`)
      await admin.query(`alter database "${building}" rename to "${template}"`)
      built = true
    }
    await admin.query(`create database "${name}" template "${template}"`)
  } finally {
    await admin.query("select pg_advisory_unlock($1)", [TEMPLATE_LOCK]).catch(() => undefined)
    await admin.end()
  }
  return built
}

/**
 * A fresh database holding the migrated and seeded store. `env` is the
 * environment Medusa boots with (REDIS_URL, provider settings); it is used only
 * when the template has to be built. `built` says whether this call built it.
 */
export async function seededDatabase(env: NodeJS.ProcessEnv): Promise<{ url: string; built: boolean; drop(): Promise<void> }> {
  const server = serverUrl()
  const name = `mptw_store_${randomBytes(6).toString("hex")}`
  const built = await copyOfTemplate(`mptw_store_tpl_${await schemaKey()}`, name, async (url) => {
    await medusaCommand(["db:migrate"], { ...env, DATABASE_URL: url })
    await medusaCommand(["exec", "./scripts/demo/seed.ts"], { ...env, DATABASE_URL: url })
  })
  return {
    url: `${server}/${name}`,
    built,
    drop: async () => {
      const client = new pg.Client({ connectionString: `${server}/postgres` })
      await client.connect()
      await client.query(`drop database if exists "${name}" with (force)`)
      await client.end()
    },
  }
}

/**
 * Creates `name` holding the migrated, empty store: what Medusa's test runner
 * would otherwise build file by file, running every migration (most of its start-up).
 */
export async function migratedDatabase(name: string, env: NodeJS.ProcessEnv): Promise<void> {
  await copyOfTemplate(`mptw_schema_tpl_${await schemaKey()}`, name, (url) => medusaCommand(["db:migrate"], { ...env, DATABASE_URL: url }))
}
