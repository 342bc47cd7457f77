/**
 * Said where a screen shows what the person's role may read but not change: the reason the usual control is
 * missing, so nobody hunts for it (or meets the server's refusal).
 */
export function RoleNote({ children = 'Solo un administrador puede cambiar esto' }: { children?: string }) {
  return <p className="role-note">{children}</p>;
}
