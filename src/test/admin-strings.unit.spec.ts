import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"

/**
 * Every text the plugin's admin shows goes through `t(...)` (react-i18next,
 * Medusa's admin translations) and exists in English and in Traditional
 * Chinese (`src/admin/i18n/json/en.json`, `zhTW.json`). This reads every
 * `src/admin/**\/*.tsx` with the TypeScript compiler and fails on:
 * - JSX text with letters;
 * - a string with letters in a visible place: a visible prop or option
 *   (`label`, `title`, `placeholder`, `aria-label`, `description`, `heading`,
 *   a prompt's `confirmText`, ...), a JSX child expression, a toast's text;
 * - a `t("…")` key (or the static start of a `t(\`…${x}\`)` key) missing from
 *   either JSON file, and JSON files whose key sets or `{{placeholders}}` differ.
 */

const ROOT = join(__dirname, "..", "admin")
const I18N = join(ROOT, "i18n", "json")

/** Props and option keys whose value a user reads. */
const VISIBLE = new Set([
  "label",
  "title",
  "placeholder",
  "aria-label",
  "aria-description",
  "alt",
  "description",
  "heading",
  "subtitle",
  "header",
  "tooltip",
  "content",
  "text",
  "confirmText",
  "cancelText",
  "emptyText",
  "helperText",
  "hint",
  "caption",
  "message",
])
/** `toast.success("…")`, `toast("…", { description: "…" })`. */
const TOAST = /^toast(\.(success|error|warning|info|loading|message))?$/
const LETTERS = /\p{L}/u

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? files(path, ext) : ext.test(entry.name) ? [path] : []
  })
}

function flatten(value: unknown, prefix = ""): Map<string, string> {
  const keys = new Map<string, string>()
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof inner === "object" && inner !== null) {
      flatten(inner, path).forEach((text, k) => keys.set(k, text))
    } else {
      keys.set(path, String(inner))
    }
  }
  return keys
}

const en = flatten(JSON.parse(readFileSync(join(I18N, "en.json"), "utf8")))
const zhTW = flatten(JSON.parse(readFileSync(join(I18N, "zhTW.json"), "utf8")))

interface Finding {
  file: string
  line: number
  text: string
}

/** A property or attribute name as written (`label`, `"aria-label"`). */
const nameOf = (name: ts.Node): string | undefined => (ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined)

/** `t(…)` or `i18n.t(…)`. */
const isTranslation = (node: ts.Node): node is ts.CallExpression =>
  ts.isCallExpression(node) &&
  ((ts.isIdentifier(node.expression) && node.expression.text === "t") || (ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "t"))

/**
 * The strings an expression shows as it is: a literal, either side of a
 * condition or a fallback (`a ?? "None"`), a template's text. Strings handed to
 * a call (`t("…")`, a formatter) are that call's business.
 */
function shownStrings(node: ts.Expression): ts.Node[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    return [node]
  }
  if (ts.isTemplateExpression(node)) {
    return [node.head, ...node.templateSpans.flatMap((span) => [...shownStrings(span.expression), span.literal])]
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node)) {
    return shownStrings(node.expression)
  }
  if (ts.isConditionalExpression(node)) {
    return [...shownStrings(node.whenTrue), ...shownStrings(node.whenFalse)]
  }
  if (ts.isBinaryExpression(node) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken].includes(node.operatorToken.kind)) {
    return [...(node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ? [] : shownStrings(node.left)), ...shownStrings(node.right)]
  }
  return []
}

const textOf = (node: ts.Node) => (node as ts.LiteralLikeNode).text

interface Scan {
  untranslated: Finding[]
  keys: Array<Finding & { prefix: boolean }>
}

function scan(path: string): Scan {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true, path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const file = relative(join(ROOT, ".."), path)
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
  const result: Scan = { untranslated: [], keys: [] }
  const shown = (expression: ts.Expression | undefined) => {
    for (const literal of expression ? shownStrings(expression) : []) {
      const text = textOf(literal)
      if (LETTERS.test(text)) {
        result.untranslated.push({ file, line: at(literal), text })
      }
    }
  }
  /** Route config labels are translation keys themselves (`translationNs`). */
  const routeConfigLabels = new Set<ts.Node>()

  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "defineRouteConfig") {
      const [config] = node.arguments
      if (config && ts.isObjectLiteralExpression(config)) {
        for (const property of config.properties) {
          if (ts.isPropertyAssignment(property) && nameOf(property.name) === "label" && ts.isStringLiteral(property.initializer)) {
            routeConfigLabels.add(property.initializer)
            result.keys.push({ file, line: at(property.initializer), text: property.initializer.text, prefix: false })
          }
        }
      }
    }
    if (isTranslation(node)) {
      const [key] = node.arguments
      if (key && (ts.isStringLiteral(key) || ts.isNoSubstitutionTemplateLiteral(key))) {
        result.keys.push({ file, line: at(key), text: key.text, prefix: false })
      } else if (key && ts.isTemplateExpression(key)) {
        result.keys.push({ file, line: at(key), text: key.head.text, prefix: true })
      } else if (key && ts.isConditionalExpression(key)) {
        for (const branch of [key.whenTrue, key.whenFalse]) {
          if (ts.isStringLiteral(branch)) {
            result.keys.push({ file, line: at(branch), text: branch.text, prefix: false })
          }
        }
      }
    }
    if (path.endsWith(".tsx")) {
      if (ts.isJsxText(node) && LETTERS.test(node.text)) {
        result.untranslated.push({ file, line: at(node), text: node.text.trim() })
      }
      if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
        shown(node.expression)
      }
      if (ts.isJsxAttribute(node) && VISIBLE.has(nameOf(node.name) ?? "") && node.initializer) {
        shown(ts.isStringLiteral(node.initializer) ? node.initializer : ts.isJsxExpression(node.initializer) ? node.initializer.expression : undefined)
      }
      if (ts.isPropertyAssignment(node) && VISIBLE.has(nameOf(node.name) ?? "") && !routeConfigLabels.has(node.initializer)) {
        shown(node.initializer)
      }
      if (ts.isCallExpression(node) && TOAST.test(node.expression.getText(source))) {
        node.arguments.forEach((argument) => shown(argument))
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return result
}

const scans = files(ROOT, /\.tsx?$/).map(scan)
const placeholdersOf = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()

describe("the admin's texts", () => {
  it("are read from some admin files", () => {
    expect(scans.length).toBeGreaterThan(5)
    expect(scans.flatMap((s) => s.keys).length).toBeGreaterThan(50)
  })

  it("go through t(): no JSX text, visible prop or toast text is left in English", () => {
    expect(scans.flatMap((s) => s.untranslated)).toEqual([])
  })

  it.each([
    ["en.json", en],
    ["zhTW.json", zhTW],
  ])("have every t() key in %s", (_name, texts) => {
    const missing = scans
      .flatMap((s) => s.keys)
      .filter(({ text, prefix }) => (prefix ? ![...texts.keys()].some((key) => key.startsWith(text)) : !texts.has(text)))
      .map(({ file, line, text }) => `${file}:${line} ${text}`)
    expect(missing).toEqual([])
  })

  it("are the same keys, with the same placeholders, in English and Traditional Chinese", () => {
    expect([...zhTW.keys()].sort()).toEqual([...en.keys()].sort())
    for (const [key, english] of en) {
      expect({ key, placeholders: placeholdersOf(zhTW.get(key) ?? "") }).toEqual({ key, placeholders: placeholdersOf(english) })
    }
  })

  it("are translated: every Traditional Chinese text that has letters has Chinese in it", () => {
    const words = (text: string) => text.replace(/\{\{\s*\w+\s*\}\}/g, "")
    const untranslated = [...zhTW].filter(([, text]) => LETTERS.test(words(text)) && !/\p{Script=Han}/u.test(text)).map(([key, text]) => `${key}: ${text}`)
    expect(untranslated).toEqual([])
  })
})
