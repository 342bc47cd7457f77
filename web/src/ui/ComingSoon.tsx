import { EmptyState } from './EmptyState';
import { Icon, type IconName } from './Icon';
import { PageHeader } from './PageHeader';

interface ComingSoonProps {
  title: string;
  subtitle: string;
  icon: IconName;
  description: string;
}

/** A screen whose feature is on its way: says what will be here instead of showing a blank page. */
export function ComingSoon({ title, subtitle, icon, description }: ComingSoonProps) {
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <div className="card">
        <EmptyState icon={<Icon name={icon} size={32} />} title="Disponible muy pronto" description={description} />
      </div>
    </>
  );
}
