import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './Button';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null);
}

/** Open dialogs, innermost last: only the top one answers the keyboard. */
const openDialogs: HTMLElement[] = [];
// Not useId: under preact/compat a dialog rendered inside another's portal can get an id already in use,
// and its aria-labelledby would then name it after the wrong title.
let titleSeq = 0;

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  /**
   * The form inside holds unsaved input: Escape, a click outside and the × button first ask
   * "¿Descartar los cambios?" instead of closing (pass `useForm().dirty`, or your own comparison).
   */
  dirty?: boolean;
}

/**
 * A dialog that owns the keyboard from the moment it is on screen (focus and the Escape/Tab handlers are
 * set before the first paint), keeps Tab inside itself, closes on Escape, asks before throwing away a dirty
 * form, and hands focus back to its opener.
 */
export function Modal({ title, onClose, children, footer, wide = false, dirty = false }: ModalProps) {
  const [titleId] = useState(() => `dialogo-titulo-${++titleSeq}`);
  const dialogRef = useRef<HTMLDivElement>(null);
  const [askingDiscard, setAskingDiscard] = useState(false);
  const latest = useRef({ onClose, dirty, askingDiscard });
  latest.current = { onClose, dirty, askingDiscard };

  const requestClose = () => {
    if (latest.current.dirty) setAskingDiscard(true);
    else latest.current.onClose();
  };
  const requestCloseRef = useRef(requestClose);
  requestCloseRef.current = requestClose;

  // Layout effect: runs before the browser paints the dialog, so no keystroke can arrive "too early".
  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    if (!dialog) return undefined;
    openDialogs.push(dialog);
    const body = dialog.querySelector<HTMLElement>('.modal-body');
    const first = dialog.querySelector<HTMLElement>('[autofocus]') ?? (body && focusables(body)[0]) ?? dialog;
    first.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (openDialogs[openDialogs.length - 1] !== dialog || event.defaultPrevented) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        requestCloseRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables(dialog);
      const firstItem = items[0];
      const lastItem = items[items.length - 1];
      const active = document.activeElement;
      if (!firstItem || !lastItem) {
        event.preventDefault();
        dialog.focus();
      } else if (!(active instanceof Node) || !dialog.contains(active)) {
        event.preventDefault();
        (event.shiftKey ? lastItem : firstItem).focus();
      } else if (event.shiftKey && (active === firstItem || active === dialog)) {
        event.preventDefault();
        lastItem.focus();
      } else if (!event.shiftKey && active === lastItem) {
        event.preventDefault();
        firstItem.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      openDialogs.splice(openDialogs.indexOf(dialog), 1);
      // The opener may be gone (a deleted row): the page's main region is the next best place.
      if (opener?.isConnected) opener.focus();
      else document.getElementById('contenido')?.focus();
    };
  }, []);

  // Once the form is saved or reset there is nothing left to discard.
  useEffect(() => {
    if (!dirty) setAskingDiscard(false);
  }, [dirty]);

  return createPortal(
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && requestClose()}>
      <div
        ref={dialogRef}
        className={`modal ${wide ? 'modal-wide' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <header className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-btn" aria-label="Cerrar ventana" onClick={requestClose}>
            ×
          </button>
        </header>
        <div className="modal-body">{children}</div>
        {footer && <footer className="modal-footer">{footer}</footer>}
      </div>
      {askingDiscard && (
        <Modal
          title="¿Descartar los cambios?"
          onClose={() => setAskingDiscard(false)}
          footer={
            <>
              <Button variant="secondary" autoFocus onClick={() => setAskingDiscard(false)}>
                Seguir editando
              </Button>
              <Button variant="danger" onClick={() => latest.current.onClose()}>
                Descartar
              </Button>
            </>
          }
        >
          <p>Lo que escribiste en este formulario se perderá.</p>
        </Modal>
      )}
    </div>,
    document.body,
  );
}
