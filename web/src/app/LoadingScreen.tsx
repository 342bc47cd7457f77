export function LoadingScreen() {
  return (
    <div className="loading-screen" role="status">
      <span className="spinner" aria-hidden="true" />
      <p>Cargando...</p>
    </div>
  );
}
