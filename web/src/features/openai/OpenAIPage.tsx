import { useState } from 'react';
import { toast } from '../../lib/toasts';
import { usePermissions } from '../../lib/workspace-roles';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { PageHeader } from '../../ui/PageHeader';
import { deleteKey, keyPermissions, NO_KEY } from './api';
import { ApiKeyGuide } from './ApiKeyGuide';
import { KeyForm } from './KeyForm';
import { KeyStatusCard } from './KeyStatusCard';
import { useAssistantModel } from './use-assistant-model';
import { useKeyStatus } from './use-key-status';
import './openai.css';

export function OpenAIPage() {
  const [status, setStatus] = useKeyStatus();
  const model = useAssistantModel();
  const can = usePermissions(keyPermissions);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const remove = async () => {
    setDeleting(true);
    try {
      await deleteKey();
      setStatus(NO_KEY);
      toast.success('API key eliminada');
    } catch (err) {
      console.error('No se pudo eliminar la API key', err);
      toast.error('No se pudo eliminar la API key');
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  };

  return (
    <>
      <PageHeader title="OpenAI API Key" subtitle="La clave con la que responde tu asistente IA" />
      <KeyStatusCard status={status} onDelete={can?.remove ? () => setConfirming(true) : undefined} readOnly={can?.save === false} />
      {/* The form, and the guide to getting a key for it, are for those who may save one. */}
      {can?.save && (
        <>
          <KeyForm onSaved={(last4) => setStatus({ exists: true, last4 })} />
          <ApiKeyGuide model={model} />
        </>
      )}
      {confirming && (
        <ConfirmDialog
          title="Eliminar API key"
          message="¿Seguro que quieres eliminar tu API key? El asistente IA no podrá responder hasta que guardes otra."
          confirmLabel={deleting ? 'Eliminando...' : 'Eliminar'}
          busy={deleting}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}
