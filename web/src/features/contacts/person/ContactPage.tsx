import { useEffect, useState } from 'react';
import { Link, useRoute } from 'wouter';
import { ApiError, errorMessage } from '../../../lib/errors';
import { toast } from '../../../lib/toasts';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { EmptyState } from '../../../ui/EmptyState';
import { Icon } from '../../../ui/Icon';
import { PageHeader } from '../../../ui/PageHeader';
import { ContactModal } from '../ContactModal';
import { fullName, type Contact } from '../types';
import { getContact, getDuplicatesOf, getTimeline, mergeInto, type TimelineSection } from './api';
import { Attribution } from './Attribution';
import { ScheduleMeeting } from './ScheduleMeeting';
import { Timeline } from './Timeline';
import { useMemberNames } from './use-member-names';
import './contact-page.css';

type Loaded = { kind: 'loading' } | { kind: 'missing' } | { kind: 'failed'; message: string } | { kind: 'ready'; contact: Contact };

const added = new Intl.DateTimeFormat('es-ES', { dateStyle: 'long' });

/** `/contacts/:id`: one person across channels, with the duplicates that could be merged into it. */
export function ContactPage() {
  const [, params] = useRoute<{ id: string }>('/contacts/:id');
  const id = params?.id ?? '';
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [sections, setSections] = useState<TimelineSection[] | null>(null);
  const [duplicates, setDuplicates] = useState<Contact[]>([]);
  const [merging, setMerging] = useState<Contact | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const nameOf = useMemberNames();

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    getContact(id, signal)
      .then((contact) => {
        setLoaded({ kind: 'ready', contact });
        getDuplicatesOf(contact, signal).then(setDuplicates, () => setDuplicates([]));
      })
      .catch((err: unknown) => {
        if (signal.aborted) return;
        const status = err instanceof ApiError ? err.status : 0;
        setLoaded(status === 404 || status === 400 ? { kind: 'missing' } : { kind: 'failed', message: errorMessage(err) });
      });
    getTimeline(id, signal).then(setSections, () => !signal.aborted && setSections([]));
    return () => controller.abort();
  }, [id, version]);

  const merge = async (other: Contact) => {
    setBusy(true);
    try {
      const survivor = await mergeInto(id, [other.id]);
      setLoaded({ kind: 'ready', contact: survivor });
      toast.success('Contactos fusionados');
      setVersion((v) => v + 1);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
      setMerging(null);
    }
  };

  const back = (
    <Link href="/contacts" className="contact-back">
      ← Volver a contactos
    </Link>
  );

  if (loaded.kind === 'loading') {
    return (
      <p className="page-loading" role="status">
        Cargando contacto...
      </p>
    );
  }
  if (loaded.kind !== 'ready') {
    return (
      <>
        {back}
        <EmptyState
          title={loaded.kind === 'missing' ? 'Contacto no encontrado' : 'No se pudo cargar el contacto'}
          description={loaded.kind === 'missing' ? 'Puede que se haya eliminado o fusionado con otro.' : loaded.message}
          action={
            loaded.kind === 'failed' ? (
              <Button variant="secondary" onClick={() => setVersion((v) => v + 1)}>
                Reintentar
              </Button>
            ) : undefined
          }
        />
      </>
    );
  }

  const { contact } = loaded;
  const name = fullName(contact);
  return (
    <>
      {back}
      <PageHeader
        title={name}
        subtitle={contact.company ?? undefined}
        actions={
          <>
            {contact.email && <ScheduleMeeting name={name} email={contact.email} onCreated={() => setVersion((v) => v + 1)} />}
            <Button variant="secondary" onClick={() => setEditing(true)}>
              <Icon name="edit" size={18} />
              Editar
            </Button>
          </>
        }
      />
      {nameOf && <Attribution contact={contact} nameOf={nameOf} />}
      <div className="contact-grid">
        <section className="card" aria-labelledby="contacto-datos">
          <h2 id="contacto-datos" className="card-title">
            Datos
          </h2>
          <dl className="contact-fields">
            <div>
              <dt>Correo</dt>
              <dd>{contact.email ? <a href={`mailto:${contact.email}`}>{contact.email}</a> : '—'}</dd>
            </div>
            <div>
              <dt>Teléfono</dt>
              <dd>{contact.phone ?? '—'}</dd>
            </div>
            <div>
              <dt>Empresa</dt>
              <dd>{contact.company ?? '—'}</dd>
            </div>
            <div>
              <dt>Añadido</dt>
              <dd>{added.format(new Date(contact.createdAt))}</dd>
            </div>
            <div>
              <dt>Etiquetas</dt>
              <dd>
                {contact.tags.length > 0 ? (
                  <ul className="tag-list" aria-label="Etiquetas">
                    {contact.tags.map((tag) => (
                      <li key={tag} className="tag">
                        {tag}
                      </li>
                    ))}
                  </ul>
                ) : (
                  'Sin etiquetas'
                )}
              </dd>
            </div>
          </dl>
          <h3>Notas</h3>
          <p className="contact-notes">{contact.notes?.trim() ? contact.notes : <span className="muted">Sin notas</span>}</p>
        </section>

        {duplicates.length > 0 && (
          <section className="card" aria-labelledby="contacto-duplicados">
            <h2 id="contacto-duplicados" className="card-title">
              Posibles duplicados
            </h2>
            <p className="muted">Tienen el mismo teléfono. Al fusionar se unen las etiquetas y la actividad; no se pierde nada.</p>
            <ul className="duplicate-list">
              {duplicates.map((other) => (
                <li key={other.id}>
                  <span>
                    <strong>{fullName(other)}</strong>
                    <span className="muted"> · {[other.email, other.phone, other.company].filter(Boolean).join(' · ')}</span>
                  </span>
                  <Button small variant="secondary" onClick={() => setMerging(other)}>
                    Fusionar con {fullName(other)}
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        )}

        <section className="card contact-activity" aria-labelledby="contacto-actividad">
          <h2 id="contacto-actividad" className="card-title">
            Actividad
          </h2>
          {sections === null ? (
            <p className="muted" role="status">
              Cargando actividad...
            </p>
          ) : (
            <Timeline sections={sections} />
          )}
        </section>
      </div>

      {merging && (
        <ConfirmDialog
          title="Fusionar contactos"
          message={`${fullName(merging)} se fusionará en ${name}: se conservan sus etiquetas, datos y actividad.`}
          confirmLabel={busy ? 'Fusionando...' : 'Fusionar'}
          busy={busy}
          onConfirm={() => void merge(merging)}
          onCancel={() => setMerging(null)}
        />
      )}
      {editing && (
        <ContactModal
          contact={contact}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            setVersion((v) => v + 1);
          }}
        />
      )}
    </>
  );
}
