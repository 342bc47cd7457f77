import { Component, type ReactNode } from 'react';
import { Button } from './Button';
import { EmptyState } from './EmptyState';

interface State {
  failed: boolean;
}

/** A screen that cannot load (e.g. its chunk vanished after a deploy) says so instead of going blank. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error('No se pudo mostrar la pantalla', error);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="card">
        <EmptyState
          title="No se pudo cargar esta pantalla"
          description="Puede que haya una versión nueva de la aplicación. Recarga la página para continuar."
          action={<Button onClick={() => location.reload()}>Recargar</Button>}
        />
      </div>
    );
  }
}
