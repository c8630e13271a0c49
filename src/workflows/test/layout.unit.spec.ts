import { readdirSync, readFileSync, statSync } from "node:fs"
import { basename, join, relative } from "node:path"

/**
 * The folders show the design (ARCHITECTURE.md, "src/workflows"): `src/workflows` holds `index.ts` and one
 * folder per family of workflows; in a family, one file per workflow named by its id, its steps in `steps/`
 * (one per file, named by the step's id), its pure decision code in `decisions/`, its unit tests in `test/`.
 * What is neither lives where its kind does (src/deliveries, src/reconciliation, src/lib, a provider's folder).
 * The ids are persisted in workflow executions and merchants hook them: a file follows its id, never the
 * other way round.
 */
const SRC = join(__dirname, "..", "..")
const WORKFLOWS = join(SRC, "workflows")
const FAMILY_FOLDERS = new Set(["steps", "decisions", "test"])
/** Base names many folders have by Medusa's or this plugin's convention. */
const SHARED_NAMES = new Set(["index.ts", "route.ts", "page.tsx", "validators.ts", "service.ts", "options.ts"])

const isDir = (path: string) => statSync(path).isDirectory()
const entries = (dir: string) => readdirSync(dir).map((name) => join(dir, name))
const isTest = (path: string) => /\.spec\.tsx?$/.test(path) || path.split(/[\\/]/).includes("test")
const code = (path: string) => readFileSync(path, "utf8")
const name = (path: string) => basename(path).replace(/\.tsx?$/, "")
const where = (path: string) => relative(SRC, path)

function walk(dir: string): string[] {
  return entries(dir).flatMap((path) => (isDir(path) ? walk(path) : [path]))
}

/** The ids given to `createStep(` or `createWorkflow(` in a file: a string, or a constant resolved to its string. */
function idsOf(text: string, call: "createStep" | "createWorkflow"): string[] {
  return [...text.matchAll(new RegExp(`\\b${call}\\(\\s*(?:"([^"]+)"|([A-Za-z_$][\\w$]*))`, "g"))].map(([, literal, constant]) => literal ?? resolveConstant(text, constant))
}

function resolveConstant(text: string, constant: string): string {
  const local = new RegExp(`const ${constant}\\s*=\\s*(?:"([^"]+)"|([A-Za-z_$][\\w$]*))`).exec(text)
  if (local) {
    return local[1] ?? resolveConstant(text, local[2])
  }
  // Imported: its declaration somewhere in src.
  for (const path of walk(SRC).filter((path) => /\.ts$/.test(path) && !isTest(path))) {
    const declared = new RegExp(`export const ${constant}\\s*=\\s*"([^"]+)"`).exec(code(path))
    if (declared) {
      return declared[1]
    }
  }
  return `<unresolved ${constant}>`
}

/** Medusa's place for handlers of other workflows' hooks (core's included): not a family. */
const HOOKS = join(WORKFLOWS, "hooks")
const families = entries(WORKFLOWS).filter((path) => isDir(path) && basename(path) !== "test" && path !== HOOKS)
/** The files of a family's `steps/`. */
function stepFiles(family: string): string[] {
  const steps = join(family, "steps")
  return statSafe(steps) ? entries(steps).filter((path) => !isDir(path)) : []
}

describe("the layout of src/workflows", () => {
  it("holds only index.ts and folders, one per family of workflows", () => {
    const files = entries(WORKFLOWS).filter((path) => !isDir(path))
    expect(files.map(where)).toEqual(["workflows/index.ts"])
    expect(families.length).toBeGreaterThan(0)
  })

  it("has in hooks/ only files that consume a workflow's hooks, defining no workflow or step", () => {
    const wrong = entries(HOOKS).filter((path) => isDir(path) || !/\bhooks\.\w+\(/.test(code(path)) || idsOf(code(path), "createWorkflow").length + idsOf(code(path), "createStep").length > 0)
    expect(wrong.map(where)).toEqual([])
  })

  it("has in each family only workflow files, steps/, decisions/ and test/", () => {
    const strays = families.flatMap((family) => entries(family).filter((path) => (isDir(path) ? !FAMILY_FOLDERS.has(basename(path)) : !/\.ts$/.test(path))))
    const nested = families.flatMap((family) =>
      entries(family)
        .filter((path) => isDir(path) && basename(path) !== "test")
        .flatMap((folder) => entries(folder).filter((path) => isDir(path) ? basename(path) !== "test" : !/\.ts$/.test(path)))
    )
    expect([...strays, ...nested].map(where)).toEqual([])
  })

  it("has one step per file in steps/, named by the step's id", () => {
    const wrong = families.flatMap((family) => {
      return stepFiles(family).flatMap((path) => {
        const text = code(path)
        const ids = idsOf(text, "createStep")
        const workflows = idsOf(text, "createWorkflow")
        return ids.length === 1 && ids[0] === name(path) && !workflows.length ? [] : [`${where(path)}: steps ${JSON.stringify(ids)}, workflows ${JSON.stringify(workflows)}`]
      })
    })
    expect(wrong).toEqual([])
  })

  it("has one workflow per file beside steps/, named by the workflow's id, with no step of its own", () => {
    const wrong = families.flatMap((family) =>
      entries(family)
        .filter((path) => !isDir(path))
        .flatMap((path) => {
          const text = code(path)
          const ids = idsOf(text, "createWorkflow")
          const steps = idsOf(text, "createStep")
          return ids.length === 1 && ids[0] === name(path) && !steps.length ? [] : [`${where(path)}: workflows ${JSON.stringify(ids)}, steps ${JSON.stringify(steps)}`]
        })
    )
    expect(wrong).toEqual([])
  })

  it("keeps decisions free of steps and workflows", () => {
    const wrong = families.flatMap((family) => {
      const decisions = join(family, "decisions")
      return (statSafe(decisions) ? walk(decisions) : []).filter((path) => !isTest(path) && /\b(createStep|createWorkflow)\(/.test(code(path)))
    })
    expect(wrong.map(where)).toEqual([])
  })

  /**
   * A workflow run with `.run()` inside a step is unknown to its parent's engine: a later step's failure
   * undoes it only through the step's own compensation. `runAsStep` lets the engine do it; where it cannot
   * (a loop, errors caught, a lock a sub-workflow skips, work that must stand), the line above says why.
   */
  it("runs no nested workflow with .run() in a step without a reason", () => {
    // A call, not a comment that names one.
    const isCall = (line: string) => /\.run\(/.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line)
    const unexplained = families.flatMap(stepFiles).flatMap((path) => {
      const lines = code(path).split("\n")
      return lines.flatMap((line, i) => (isCall(line) && !lines[i - 1]?.trim().startsWith("// .run(), not runAsStep:") ? [`${where(path)}:${i + 1}`] : []))
    })
    expect(unexplained).toEqual([])
  })

  it("creates no step or workflow outside src/workflows", () => {
    const outside = walk(SRC).filter((path) => /\.tsx?$/.test(path) && !path.startsWith(WORKFLOWS) && !isTest(path) && /\b(createStep|createWorkflow)\(/.test(code(path)))
    expect(outside.map(where)).toEqual([])
  })
})

describe("the names of src", () => {
  it("gives no two files the same base name", () => {
    const byName = new Map<string, string[]>()
    for (const path of walk(SRC)) {
      if (isTest(path) || path.split(/[\\/]/).includes("migrations") || SHARED_NAMES.has(basename(path))) {
        continue
      }
      byName.set(basename(path), [...(byName.get(basename(path)) ?? []), where(path)])
    }
    const twins = [...byName.values()].filter((paths) => paths.length > 1 && !isStepOfItsWorkflow(paths))
    expect(twins).toEqual([])
  })
})

/**
 * A step whose id is its workflow's (`delete-tw-saved-card`, `create-tw-subscription-plan`): both files are
 * named by that id, the step's in its workflow's `steps/`. Ids are not renamed.
 */
function isStepOfItsWorkflow(paths: string[]): boolean {
  if (paths.length !== 2) {
    return false
  }
  const [a, b] = [...paths].sort((x, y) => x.length - y.length)
  return b === join(a.replace(/[^\\/]+$/, ""), "steps", basename(a))
}

function statSafe(path: string): boolean {
  try {
    return isDir(path)
  } catch {
    return false
  }
}
