// The repository installs react-dom 18 (for the Medusa admin) but not its types: what the unit tests use of it.
declare module "react-dom/server" {
  import type { ReactNode } from "react"
  export function renderToStaticMarkup(element: ReactNode): string
}
