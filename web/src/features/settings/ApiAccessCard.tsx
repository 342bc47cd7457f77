import { CopyableSecret } from '../../ui/CopyableSecret';
import { apiAccess } from './api-access';
import { SCOPE_GROUPS, SCOPE_LABELS } from './personal-tokens';
import './personal-tokens.css';

/** Configuración → "API y automatizaciones": how n8n, Make, Zapier, a script or an AI client reaches this install. */
export function ApiAccessCard() {
  const access = apiAccess(window.location.origin);
  return (
    <section className="card api-access" aria-labelledby="api-y-automatizaciones">
      <h2 id="api-y-automatizaciones" className="card-title">
        API y automatizaciones
      </h2>
      <p className="muted">
        Crea un token en «Tokens de acceso» y úsalo en la cabecera de cada petición. La referencia de la API lista cada llamada con sus datos.
      </p>
      <h3>Dirección de la API</h3>
      <CopyableSecret value={access.api} label="Dirección de la API" copiedMessage="Dirección copiada" className="copyable-value" />
      <h3>Cabecera</h3>
      <CopyableSecret value={access.header} label="Cabecera de autenticación" copiedMessage="Cabecera copiada" className="copyable-value" />
      <p>
        <a href={access.docs} target="_blank" rel="noreferrer">
          Abrir la referencia de la API
        </a>
      </p>
      <h3>Servidor MCP (para clientes de IA)</h3>
      <CopyableSecret value={access.mcp} label="Dirección del servidor MCP" copiedMessage="Dirección copiada" className="copyable-value" />
      <p className="muted">Configuración para VS Code o Cursor (pide el token al conectar):</p>
      <CopyableSecret value={access.mcpConfig} label="Configuración del cliente MCP" copiedMessage="Configuración copiada" className="copyable-value api-access-config" />
      <p className="muted">Con Claude Code:</p>
      <CopyableSecret value={access.claudeCommand} label="Orden para Claude Code" copiedMessage="Orden copiada" className="copyable-value" />
      <h3>Permisos de un token</h3>
      <dl className="api-access-scopes">
        {SCOPE_GROUPS.map((group) => (
          <div key={group.area}>
            <dt>{group.area}</dt>
            {group.scopes.map((scope) => (
              <dd key={scope}>
                <code>{scope}</code>: {SCOPE_LABELS[scope]}
              </dd>
            ))}
          </div>
        ))}
      </dl>
    </section>
  );
}
