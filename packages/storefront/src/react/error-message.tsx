"use client"
import { useTwPayment } from "./context.js"

export interface ErrorMessageProps {
  /** A failure (its code picks the text) or nothing, when there is nothing to say. */
  error: unknown
  id?: string
  /** Added to the host's `error` class of `TwPaymentProvider classNames`. */
  className?: string
}

/** A failure in the shopper's language, announced as it appears (`role="alert"`). */
export function ErrorMessage({ error, id, className }: ErrorMessageProps) {
  const { errorText, classNames } = useTwPayment()
  if (error === undefined || error === null) {
    return null
  }
  return (
    <p role="alert" id={id} className={[classNames.error, className].filter(Boolean).join(" ") || undefined} data-testid="tw-error">
      {errorText(error)}
    </p>
  )
}
