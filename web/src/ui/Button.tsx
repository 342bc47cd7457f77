import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  small?: boolean;
}

export function Button({ variant = 'primary', small = false, type = 'button', className = '', ...rest }: ButtonProps) {
  const classes = ['btn', `btn-${variant}`, small ? 'btn-sm' : '', className].filter(Boolean).join(' ');
  return <button type={type} className={classes} {...rest} />;
}
