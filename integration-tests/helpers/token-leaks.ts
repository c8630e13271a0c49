import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { keepAnswersAndLogs } from "./answers-and-logs"
import { control, type useSandbox } from "./hosted-store"
import { settle } from "./settle"

type Sandbox = ReturnType<typeof useSandbox>["sandbox"]

/** The tokens the service sent (only in `token` notifications; the sandbox keeps a copy of each). */
async function tokensSent(sandbox: Sandbox): Promise<string[]> {
  const { notifications } = await control(sandbox, "GET", "/notifications?purpose=token")
  return (notifications as Array<{ body: { token?: string } }>).map((n) => n.body.token).filter((t): t is string => !!t)
}

/** Every session's data and context, payment's data and account holder's data, as stored. */
async function storedData(container: MedusaContainer): Promise<string> {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const sessions = await pg.raw("select data, context from payment_session")
  const payments = await pg.raw("select data from payment")
  const holders = await pg.raw("select data from account_holder")
  return JSON.stringify([sessions.rows, payments.rows, holders.rows])
}

/**
 * After every test of the file: no token the service sent, nor the key that
 * encrypts them, reached a log line, an API answer, or a session's, payment's
 * or account holder's stored data. Call it in the runner's testSuite after
 * the file's own `beforeEach` (its logs are watched from then on); the log
 * lines it keeps are returned for the file's own checks.
 */
export function expectNoTokenLeaks(api: Parameters<typeof keepAnswersAndLogs>[0], getContainer: () => MedusaContainer, env: ReturnType<typeof useSandbox>, tokenKey: string) {
  const { answers, lines, watchLogs, unwatchLogs } = keepAnswersAndLogs(api, getContainer)
  beforeEach(() => watchLogs())
  afterEach(async () => {
    await settle()
    const tokens = await tokensSent(env.sandbox)
    const stored = await storedData(getContainer())
    unwatchLogs()
    for (const token of [...tokens, tokenKey]) {
      expect(lines.filter((line) => line.includes(token))).toEqual([])
      expect(answers.filter((answer) => answer.includes(token))).toEqual([])
      expect(stored).not.toContain(token)
    }
  })
  return { lines }
}
