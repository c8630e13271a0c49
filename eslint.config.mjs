import js from "@eslint/js"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["node_modules/", ".medusa/", ".tmp/", ".demo/", "dist/", "packages/*/dist/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Payment code must never drop a promise on the floor.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: ["error", "smart"],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    languageOptions: { globals: { require: "readonly", module: "writable", process: "readonly", console: "readonly", globalThis: "readonly", __dirname: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["src/admin/**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: false, project: "./src/admin/tsconfig.json" } },
    // The admin bundle runs in the browser: what it shares with the server comes from src/shared only.
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/providers/**", "**/workflows/**", "**/modules/**", "**/api/**", "**/subscribers/**", "**/jobs/**", "**/cli/**", "**/scripts/**", "**/deliveries/**", "**/reconciliation/**", "**/payments/**", "**/subscriptions/**", "**/saved-cards/**"], message: "Server code stays out of the admin bundle; share it through src/shared." }] },
      ],
    },
  },
  {
    files: [
      "src/api/**/*.ts",
      "src/workflows/**/*.ts",
      "src/jobs/**/*.ts",
      "src/subscribers/**/*.ts",
      "src/scripts/**/*.ts",
      "src/deliveries/**/*.ts",
      "src/reconciliation/**/*.ts",
      "src/payments/**/*.ts",
      "src/subscriptions/**/*.ts",
      "src/saved-cards/**/*.ts",
    ],
    // The hosted provider's files are its own; what the rest of the plugin uses is re-exported by its public.ts.
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/providers/hosted-checkout/*", "!**/providers/hosted-checkout/public"], message: "Import the hosted provider through providers/hosted-checkout/public." }] },
      ],
    },
  },
  {
    files: ["src/shared/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["@medusajs/*", "../*"], message: "src/shared is imported by the admin and the storefront: Medusa-free and self-contained." }] }] },
  },
  {
    // All of src, the admin's .tsx included. A rule name no other block sets, so the no-restricted-imports above stand.
    // `x as unknown as Y` (or `<Y><unknown>x`) tells the compiler to stop checking: parse or narrow instead.
    files: ["src/**/*.ts", "src/**/*.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: ":matches(TSAsExpression, TSTypeAssertion)[expression.type=/^(TSAsExpression|TSTypeAssertion)$/][expression.typeAnnotation.type='TSUnknownKeyword']",
          message: "No `as unknown as` in src: parse or narrow the value instead.",
        },
      ],
    },
  }
)
