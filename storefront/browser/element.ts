type Child = Node | string | null | undefined | false

/**
 * Builds a DOM element. Text always goes in as text nodes, never as HTML, so
 * names and addresses from the store API cannot inject markup.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) {
      element.setAttribute(name, "")
    } else if (typeof value === "string") {
      element.setAttribute(name, value)
    }
  }
  for (const child of children) {
    if (child) {
      element.append(child)
    }
  }
  return element
}

/** The element with this id; a page whose markup lacks it is a bug, so say which id. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id)
  if (!element) {
    throw new Error(`#${id} is missing from the page`)
  }
  return element as T
}

/** Shows a message in an element (or hides it when there is none). */
export function showMessage(element: HTMLElement, message: string | undefined) {
  element.textContent = message ?? ""
  element.hidden = !message
}
