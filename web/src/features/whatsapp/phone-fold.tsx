import { useState, type ReactNode } from 'react';

/** The widths where the WhatsApp page folds its secondary sections (a phone held upright). */
export const PHONE_QUERY = '(max-width: 600px)';

/** Whether the page opened on a phone-sized screen (read once: a fold the owner opened stays open). */
export function useOpenedOnPhone(): boolean {
  const [phone] = useState(() => window.matchMedia(PHONE_QUERY).matches);
  return phone;
}

/**
 * On a phone a secondary section folds behind a one-line title the owner taps to open, so the page is not
 * thousands of pixels of settings; on a wider screen it shows as it is.
 */
export function PhoneFold({ title, children }: { title: string; children: ReactNode }) {
  const phone = useOpenedOnPhone();
  if (!phone) return <>{children}</>;
  return (
    <details className="wa-fold">
      <summary>{title}</summary>
      {children}
    </details>
  );
}
