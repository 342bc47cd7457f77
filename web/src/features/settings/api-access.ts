/**
 * Where an integration or an AI client reaches this install, from the address the owner is using it at: the
 * API, its reference, the MCP server, and the client configurations that name them.
 */
export function apiAccess(origin: string) {
  const api = `${origin}/api`;
  const mcp = `${api}/mcp`;
  const header = 'Authorization: Bearer asis_pat_…';
  // VS Code's `.vscode/mcp.json` (Cursor's `mcpServers` takes the same url and headers).
  const mcpConfig = JSON.stringify(
    {
      servers: { 'mi-asistente': { type: 'http', url: mcp, headers: { Authorization: 'Bearer ${input:asistente-token}' } } },
      inputs: [{ type: 'promptString', id: 'asistente-token', description: 'Token de acceso', password: true }],
    },
    null,
    2,
  );
  const claudeCommand = `claude mcp add --transport http mi-asistente ${mcp} --header "Authorization: Bearer asis_pat_…"`;
  return { api, docs: `${api}/docs`, mcp, header, mcpConfig, claudeCommand };
}
