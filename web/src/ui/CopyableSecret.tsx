import { copyText } from '../lib/clipboard';
import { Button } from './Button';

interface CopyableSecretProps {
  /** The secret, shown once by the caller: selectable as a whole, and copied by the button. */
  value: string;
  /** Its accessible name, e.g. "Token de acceso". */
  label: string;
  /** The toast after a copy, e.g. "Token copiado". */
  copiedMessage: string;
  /** The row's class in the caller's own CSS. */
  className: string;
}

/** A secret with a "Copiar" button; where the clipboard is refused, the user is told to copy it by hand. */
export function CopyableSecret({ value, label, copiedMessage, className }: CopyableSecretProps) {
  return (
    <div className={className}>
      <code aria-label={label}>{value}</code>
      <Button variant="secondary" small onClick={() => void copyText(value, copiedMessage)}>
        Copiar
      </Button>
    </div>
  );
}
