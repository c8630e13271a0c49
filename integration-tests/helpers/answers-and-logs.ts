import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

interface FailedCall {
  config?: { method?: string; url?: string }
  response?: { status: number; data: unknown }
}

// The runner's axios instance, as far as this file uses it.
interface RecordedApi {
  interceptors: { response: { use(onAnswer: (res: { data: unknown }) => unknown, onError: (error: FailedCall) => unknown): unknown } }
}

/**
 * Keeps every API answer and app log line, so that a test can search them for
 * what must never appear there (card tokens, their keys). Call it in the
 * runner's testSuite: the API is watched from its `beforeAll` on, the logger
 * between `watchLogs()` and `unwatchLogs()` (its lines then stay off the
 * test's output). A failed call throws an error that names the call and its
 * answer, with `response` kept for tests that check the status.
 */
export function keepAnswersAndLogs(api: RecordedApi, getContainer: () => MedusaContainer) {
  const answers: string[] = []
  const lines: string[] = []
  let spies: jest.SpyInstance[] = []

  beforeAll(() => {
    api.interceptors.response.use(
      (res) => {
        answers.push(JSON.stringify(res.data))
        return res
      },
      (error) => {
        answers.push(JSON.stringify(error.response?.data ?? null))
        return Promise.reject(
          Object.assign(new Error(`${error.config?.method} ${error.config?.url}: ${error.response?.status} ${JSON.stringify(error.response?.data)}`), {
            response: { status: error.response?.status, data: error.response?.data },
          })
        )
      }
    )
  })

  return {
    answers,
    lines,
    watchLogs() {
      const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER)
      spies = (["debug", "info", "warn", "error"] as const).map((level) =>
        jest.spyOn(logger, level).mockImplementation(((message: unknown) => {
          lines.push(String(message))
        }) as never)
      )
    },
    unwatchLogs() {
      spies.forEach((spy) => spy.mockRestore())
    },
  }
}
