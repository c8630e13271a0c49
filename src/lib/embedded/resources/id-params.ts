import { pathParam } from "../../http"
import { resourceId } from "../schemas/embedded-fields"

/** The `{id}` path parameter of every embedded resource, checked before it goes into a URL. */
export const idParams = (id: string) => ({ id: pathParam(resourceId, id, "id") })
