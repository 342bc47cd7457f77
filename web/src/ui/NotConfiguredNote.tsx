/**
 * A provider the server has no credentials for. The owner reads who can fix it (the server's sentence); the
 * setting names are only for whoever runs the server, folded under "Para el administrador".
 */
export function NotConfiguredNote({ message, variables }: { message: string; variables: readonly string[] }) {
  return (
    <div className="alert-warning not-configured" role="alert">
      <p>{message}</p>
      <details>
        <summary>Para el administrador</summary>
        <p>
          Define{' '}
          {variables.map((name, i) => (
            <span key={name}>
              {i > 0 && (i === variables.length - 1 ? ' y ' : ', ')}
              <code>{name}</code>
            </span>
          ))}{' '}
          en la configuración del servidor y reinícialo.
        </p>
      </details>
    </div>
  );
}
