import type { ChartTableData } from './ChartTable';
import type { AnalyticsData, TeamFigures } from './types';

/** Someone the figures name who is no longer among the inbox's members (their work still counts). */
export const FORMER_MEMBER = 'Antiguo miembro';
/** A member's name when the inbox could not be asked. */
const UNNAMED_MEMBER = 'Miembro';

export interface TeamRow {
  key: string;
  name: string;
  firstResponseSeconds: number | null;
  resolutionSeconds: number | null;
  handled: number;
}

type TeamData = Pick<AnalyticsData, 'team' | 'members'>;

/**
 * A row per member: everyone in the inbox (dashes and 0 when they did nothing in the period), then whoever
 * the figures name and the inbox no longer lists. Most conversations handled first, then by name.
 */
export function memberRows({ team, members }: TeamData): TeamRow[] {
  const names = new Map((members ?? []).map((m) => [m.userId, m.name]));
  const figures = new Map(team.members.map((m) => [m.userId, m]));
  const ids = new Set([...names.keys(), ...figures.keys()]);
  return [...ids]
    .map((id) => {
      const figure = figures.get(id);
      return {
        key: id,
        name: names.get(id) ?? (members ? FORMER_MEMBER : UNNAMED_MEMBER),
        firstResponseSeconds: figure?.firstResponseSeconds ?? null,
        resolutionSeconds: figure?.resolutionSeconds ?? null,
        handled: figure?.handled ?? 0,
      };
    })
    .sort((a, b) => b.handled - a.handled || a.name.localeCompare(b.name, 'es'));
}

/** Under the members: the assistant (it answers, it never resolves) and the whole team. */
export function summaryRows(team: TeamFigures): TeamRow[] {
  return [
    { key: 'assistant', name: 'Asistente (respuestas automáticas)', firstResponseSeconds: team.assistant.firstResponseSeconds, resolutionSeconds: null, handled: team.assistant.handled },
    { key: 'workspace', name: 'Total', ...team.workspace },
  ];
}

export const TEAM_COLUMNS = ['Miembro', 'Primera respuesta', 'Resolución', 'Conversaciones atendidas'] as const;

/** The Equipo table as a file: durations in whole seconds (a spreadsheet sums and sorts them), blank when none. */
export function teamTable(data: TeamData): ChartTableData {
  return {
    caption: 'Equipo',
    columns: ['Miembro', 'Primera respuesta (segundos)', 'Resolución (segundos)', 'Conversaciones atendidas'],
    rows: [...memberRows(data), ...summaryRows(data.team)].map((r) => [r.name, r.firstResponseSeconds ?? '', r.resolutionSeconds ?? '', r.handled]),
  };
}

export const CHANNEL_COLUMNS = ['Canal', 'Mensajes recibidos', 'Mensajes enviados', 'Primera respuesta'] as const;
