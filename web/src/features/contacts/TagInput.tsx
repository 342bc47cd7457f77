import { useId, useState, type KeyboardEvent } from 'react';
import { LIMITS, tooLong } from '../../lib/limits';

interface TagInputProps {
  tags: string[];
  onChange: (tags: string[]) => void;
  /** Text typed but not yet confirmed with Enter, so the form can keep it on save. */
  draft: string;
  onDraft: (draft: string) => void;
}

/** Trimmed, non-empty and not already there (ignoring case, as the server does). */
export function addTag(tags: string[], raw: string): string[] {
  const tag = raw.trim();
  const present = tags.some((t) => t.toLowerCase() === tag.toLowerCase());
  return tag && !present ? [...tags, tag] : tags;
}

export function TagInput({ tags, onChange, draft, onDraft }: TagInputProps) {
  const id = useId();
  const [announcement, setAnnouncement] = useState('');
  // Checked as the person types, with the server's own sentence, so a long tag never reaches the server.
  const error = tooLong(draft, LIMITS.tag);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (tooLong(draft, LIMITS.tag)) return;
    const next = addTag(tags, draft);
    if (next !== tags) setAnnouncement(`Etiqueta ${draft.trim()} agregada`);
    onChange(next);
    onDraft('');
  };

  return (
    <div className="field">
      <label htmlFor={id}>Etiquetas</label>
      <input
        id={id}
        value={draft}
        placeholder="Escribe una etiqueta y presiona Enter"
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={error ? true : undefined}
        onInput={(e) => onDraft(e.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <p id={`${id}-hint`} className="field-hint">
        Presiona Enter para agregar cada etiqueta.
      </p>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      {tags.length > 0 && (
        <ul className="tag-list" aria-label="Etiquetas agregadas">
          {tags.map((tag) => (
            <li key={tag} className="tag">
              {tag}
              <button
                type="button"
                className="tag-remove"
                aria-label={`Quitar etiqueta ${tag}`}
                onClick={() => onChange(tags.filter((t) => t !== tag))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <span className="sr-only" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}
