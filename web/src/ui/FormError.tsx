import { useLayoutEffect, useRef } from 'react';

/**
 * The server's answer to a failed submit, shown inside the form (a dialog's form above all): it takes the
 * focus when it appears or changes, so keyboard and screen-reader users land on the reason and stay in the
 * dialog. Render it with the message from `errorMessage(err)`, or `null` to show nothing.
 */
export function FormError({ message }: { message: string | null }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <p ref={ref} className="form-error" role="alert" tabIndex={-1}>
      {message}
    </p>
  );
}
