import { useState, type ComponentProps } from 'react';
import { TextField } from './TextField';

type PasswordFieldProps = Omit<ComponentProps<typeof TextField>, 'type' | 'addon'>;

export function PasswordField(props: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const toggle = (
    <button
      type="button"
      className="input-addon"
      aria-pressed={visible}
      aria-label={visible ? `Ocultar ${props.label.toLowerCase()}` : `Mostrar ${props.label.toLowerCase()}`}
      onClick={() => setVisible((v) => !v)}
    >
      {visible ? 'Ocultar' : 'Mostrar'}
    </button>
  );
  return <TextField {...props} type={visible ? 'text' : 'password'} addon={toggle} />;
}
