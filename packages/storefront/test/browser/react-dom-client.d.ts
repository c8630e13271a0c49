// The repository installs react-dom 18 (for the Medusa admin) but not its types: what this page uses of it.
declare module "react-dom/client" {
  import type { ReactNode } from "react"
  export interface Root {
    render(children: ReactNode): void
    unmount(): void
  }
  export function createRoot(container: Element | DocumentFragment): Root
}
