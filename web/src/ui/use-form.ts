import { useRef, useState } from 'react';
import { hasErrors, type FieldErrors } from '../lib/validation';
import { focusFirstInvalid } from './focus';

type TextFields = Record<string, string>;

/**
 * The state every text form here shares: values, errors shown only after a
 * first submit (then live as the person corrects them), inputs bound by
 * field name, and a submit check that focuses the first invalid field.
 */
export function useForm<F extends TextFields>(initial: F, validate: (values: F) => FieldErrors<keyof F & string>) {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<F>(initial);
  const [baseline, setBaseline] = useState<F>(initial);
  /** Something was typed that is not saved: pass it to `<Modal dirty>` so closing asks first. */
  const dirty = Object.keys(values).some((key) => values[key] !== baseline[key]);
  const [submitted, setSubmitted] = useState(false);
  const errors: FieldErrors<keyof F & string> = submitted ? validate(values) : {};

  const bind = (field: keyof F & string) => ({
    value: values[field],
    onInput: (e: { currentTarget: HTMLInputElement }) => {
      const { value } = e.currentTarget;
      setValues((current) => ({ ...current, [field]: value }));
    },
    error: errors[field],
  });

  /** True when the values are valid; otherwise shows the errors and focuses the first one. */
  const check = (): boolean => {
    setSubmitted(true);
    if (!hasErrors(validate(values))) return true;
    focusFirstInvalid(formRef.current);
    return false;
  };

  /** Back to `next` (the initial values by default), which also becomes what "not dirty" means. */
  const reset = (next: F = initial) => {
    setValues(next);
    setBaseline(next);
    setSubmitted(false);
  };

  return { formRef, values, bind, check, reset, dirty };
}
