import { formatCount } from './format';

export interface Figure {
  label: string;
  value: number;
}

export function FigureList({ figures }: { figures: Figure[] }) {
  return (
    <dl className="figure-list">
      {figures.map((figure) => (
        <div key={figure.label}>
          <dt>{figure.label}</dt>
          <dd>{formatCount(figure.value)}</dd>
        </div>
      ))}
    </dl>
  );
}
