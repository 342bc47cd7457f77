import { ComingSoon } from '../../ui/ComingSoon';

export function AnalyticsPage() {
  return (
    <ComingSoon
      title="Analytics"
      subtitle="Análisis detallado de tu actividad empresarial"
      icon="chart"
      description="Aquí verás la actividad general, el crecimiento de tus contactos, la distribución por canal y tu productividad por día."
    />
  );
}
