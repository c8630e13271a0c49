import type { z } from "zod"
import { type ApiResult, type Requester, type TransportRequest, validateRequest } from "../../http"
import { resolveIdempotencyKey, type IdempotentRequestOptions } from "../idempotency"
import { listPage, type ListPage } from "../schemas/embedded-envelope"
import { idParams } from "./id-params"

export interface CollectionSpec<Item extends object, Created extends object, CreateParams, ListParams> {
  /** `/v1/<collection>`. */
  path: string
  /** Names the request in validation messages ("refund"). */
  what: string
  createParams: z.ZodType<unknown, CreateParams>
  listParams: z.ZodType<TransportRequest["query"], ListParams>
  item: z.ZodType<Item>
  /** The create answer, when it carries more than a retrieve does. */
  created: z.ZodType<Created>
}

/**
 * What the payment intents and the refunds collections share (spec 4): a create
 * that carries an `Idempotency-Key`, which makes it safe to retry; a filtered
 * list; a retrieve by id.
 */
export abstract class CollectionResource<Item extends object, Created extends object, CreateParams, ListParams> {
  protected readonly requester: Requester
  readonly #spec: CollectionSpec<Item, Created, CreateParams, ListParams>
  readonly #page: z.ZodType<ListPage<Item>>

  constructor(requester: Requester, spec: CollectionSpec<Item, Created, CreateParams, ListParams>) {
    this.requester = requester
    this.#spec = spec
    this.#page = listPage(spec.item)
  }

  /** Without `idempotencyKey` a random one is sent; pass your own to repeat the call later without a second effect. */
  async create(params: CreateParams, options: IdempotentRequestOptions = {}): Promise<ApiResult<Created>> {
    const body = validateRequest(this.#spec.createParams, params, this.#spec.what)
    const idempotencyKey = resolveIdempotencyKey(options.idempotencyKey)
    return this.requester.request({ method: "POST", path: this.#spec.path, body, idempotencyKey, data: this.#spec.created })
  }

  async list(params?: ListParams): Promise<ApiResult<ListPage<Item>>> {
    const query = validateRequest(this.#spec.listParams, params ?? {}, `${this.#spec.what} list query`)
    return this.requester.request({ method: "GET", path: this.#spec.path, query, data: this.#page })
  }

  async retrieve(id: string): Promise<ApiResult<Item>> {
    return this.requester.request({ method: "GET", path: `${this.#spec.path}/{id}`, params: idParams(id), data: this.#spec.item })
  }
}
