import { Link } from 'wouter';

export function NotFound() {
  return (
    <main className="not-found">
      <p className="not-found-code">404</p>
      <h1>Página no encontrada</h1>
      <p>La dirección que buscas no existe o se ha movido.</p>
      <Link href="/" className="btn btn-primary">
        Volver al inicio
      </Link>
    </main>
  );
}
