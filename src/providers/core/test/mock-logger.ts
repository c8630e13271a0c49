import type { Logger } from "@medusajs/framework/types"

/** A whole Logger of jest mocks, for the provider parts unit tests build by hand. */
export const mockLogger = (): Logger => ({
  panic: jest.fn(),
  shouldLog: jest.fn(() => true),
  setLogLevel: jest.fn(),
  unsetLogLevel: jest.fn(),
  activity: jest.fn(() => ""),
  progress: jest.fn(),
  error: jest.fn(),
  failure: jest.fn(),
  success: jest.fn(() => ({})),
  silly: jest.fn(),
  debug: jest.fn(),
  verbose: jest.fn(),
  http: jest.fn(),
  info: jest.fn(),
  warn: jest.fn(),
  log: jest.fn(),
})
