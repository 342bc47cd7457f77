import { useId } from 'react';
import { CHANNEL_NAMES } from '../../lib/channels';
import { saveBlob } from '../../lib/download';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { ColumnHeads } from './ColumnHeads';
import { formatCount, formatDuration } from './format';
import { tableCsv } from './report';
import { CHANNEL_COLUMNS, memberRows, summaryRows, TEAM_COLUMNS, teamTable, type TeamRow } from './team';
import type { AnalyticsData } from './types';

type TeamData = Pick<AnalyticsData, 'period' | 'team' | 'members'>;

/** The Equipo table, as on screen, downloaded as `equipo-<period>-<date>.csv` (names resolved, seconds exact). */
function downloadTeam(data: TeamData): void {
  const today = new Date().toISOString().slice(0, 10);
  saveBlob(new Blob([tableCsv(teamTable(data))], { type: 'text/csv;charset=utf-8' }), `equipo-${data.period}-${today}.csv`);
}

function Row({ row }: { row: TeamRow }) {
  return (
    <tr>
      <th scope="row">{row.name}</th>
      <td>{formatDuration(row.firstResponseSeconds)}</td>
      <td>{formatDuration(row.resolutionSeconds)}</td>
      <td>{formatCount(row.handled)}</td>
    </tr>
  );
}

/**
 * Each member's medians over the period, the assistant's and the whole team's: time to the first answer of a
 * conversation they answered first, time to resolved of those resolved as theirs, and the conversations they
 * answered at least once.
 */
export function TeamCard({ data }: { data: TeamData }) {
  const titleId = useId();
  const members = memberRows(data);
  return (
    <section className="card team-card" aria-labelledby={titleId}>
      <div className="team-head">
        <h2 id={titleId} className="card-title">
          Equipo
        </h2>
        <Button variant="secondary" small onClick={() => downloadTeam(data)}>
          <Icon name="download" size={16} />
          Descargar CSV
        </Button>
      </div>
      {data.members === null && <p className="muted">No se pudieron cargar los nombres del equipo.</p>}
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Equipo: tabla">
        <table className="table">
          <caption className="sr-only">Equipo: medianas del periodo</caption>
          <ColumnHeads columns={TEAM_COLUMNS} />
          <tbody>
            {members.map((row) => (
              <Row key={row.key} row={row} />
            ))}
          </tbody>
          <tfoot>
            {summaryRows(data.team).map((row) => (
              <Row key={row.key} row={row} />
            ))}
          </tfoot>
        </table>
      </div>
      <p className="muted team-note">
        Medianas del periodo. La primera respuesta cuenta para quien respondió primero; la resolución, para quien tenía asignada la
        conversación (sin asignar, para quien la resolvió).
      </p>
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Por canal: tabla">
        <table className="table">
          <caption className="sr-only">Por canal: mensajes y mediana de la primera respuesta del periodo</caption>
          <ColumnHeads columns={CHANNEL_COLUMNS} />
          <tbody>
            {data.team.channels.map((row) => (
              <tr key={row.channel}>
                <th scope="row">{CHANNEL_NAMES[row.channel]}</th>
                <td>{formatCount(row.received)}</td>
                <td>{formatCount(row.sent)}</td>
                <td>{formatDuration(row.firstResponseSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
