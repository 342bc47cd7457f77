import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { Icon } from '../../ui/Icon';
import { fullName, type Contact } from './types';

interface ContactsTableProps {
  contacts: Contact[];
  selected: ReadonlySet<string>;
  busy: boolean;
  /** A row's checkbox clicked (its index on the page), with or without shift held. */
  onToggle: (index: number, shift: boolean) => void;
  onToggleAll: () => void;
  onEdit: (contact: Contact) => void;
  /** Absent for a role that may not delete contacts: no delete button. */
  onDelete?: ((contact: Contact) => void) | undefined;
}

export function ContactsTable({ contacts, selected, busy, onToggle, onToggleAll, onEdit, onDelete }: ContactsTableProps) {
  const allRef = useRef<HTMLInputElement>(null);
  const selectedHere = contacts.filter((c) => selected.has(c.id)).length;
  const all = contacts.length > 0 && selectedHere === contacts.length;

  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = selectedHere > 0 && !all;
  }, [selectedHere, all]);

  return (
    // The wrapper is the size container the columns give way to (contacts.css): a table that never needs
    // sideways scrolling, whose name and actions stay in view at any width.
    <div className="table-wrap contacts-table-wrap">
      <table className="table contacts-table" aria-busy={busy}>
        <caption className="sr-only">Lista de contactos</caption>
        <thead>
          <tr>
            <th scope="col" className="col-check">
              <input ref={allRef} type="checkbox" aria-label="Seleccionar todos" checked={all} onChange={onToggleAll} />
            </th>
            <th scope="col" className="col-name">
              Nombre
            </th>
            <th scope="col" className="col-email">
              Correo
            </th>
            <th scope="col" className="col-phone">
              Teléfono
            </th>
            <th scope="col" className="col-company">
              Empresa
            </th>
            <th scope="col" className="col-tags">
              Etiquetas
            </th>
            <th scope="col" className="col-actions">
              Acciones
            </th>
          </tr>
        </thead>
        <tbody>
          {contacts.map((contact, index) => {
            const name = fullName(contact);
            return (
              <tr key={contact.id} className={selected.has(contact.id) ? 'selected' : undefined}>
                <td className="col-check">
                  <input
                    type="checkbox"
                    aria-label={`Seleccionar ${name}`}
                    checked={selected.has(contact.id)}
                    onClick={(e) => onToggle(index, e.shiftKey)}
                  />
                </td>
                <td className="col-name">
                  <Link href={`/contacts/${contact.id}`} className="contact-name">
                    <span className="avatar avatar-sm" aria-hidden="true">
                      {contact.firstName.charAt(0).toUpperCase()}
                    </span>
                    <span className="contact-name-text">{name}</span>
                  </Link>
                </td>
                <Cell className="col-email" value={contact.email} />
                <Cell className="col-phone" value={contact.phone} />
                <Cell className="col-company" value={contact.company} />
                <td className="col-tags" data-empty={contact.tags.length === 0 || undefined}>
                  {contact.tags.length > 0 ? (
                    <ul className="tag-list">
                      {contact.tags.map((tag) => (
                        <li key={tag} className="tag">
                          {tag}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    '—'
                  )}
                </td>
                <td className="col-actions">
                  <button type="button" className="icon-btn" aria-label={`Editar ${name}`} title="Editar" onClick={() => onEdit(contact)}>
                    <Icon name="edit" size={18} />
                  </button>
                  {onDelete && (
                    <button
                      type="button"
                      className="icon-btn icon-btn-danger"
                      aria-label={`Eliminar ${name}`}
                      title="Eliminar"
                      onClick={() => onDelete(contact)}
                    >
                      <Icon name="trash" size={18} />
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A one-line cell cut with an ellipsis when its column is narrow; the whole value is its tooltip. */
function Cell({ className, value }: { className: string; value: string | null }) {
  return (
    <td className={className} title={value ?? undefined} data-empty={value === null || undefined}>
      {value ?? '—'}
    </td>
  );
}
