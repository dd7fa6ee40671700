import { Tag } from '@blueprintjs/core';

/** Spanish names of the template states. */
export const TEMPLATE_STATE_LABELS: Record<string, string> = { BORRADOR: 'Borrador', PUBLICADA: 'Publicada' };

/** A template version's state as a tag: Borrador (warning), Publicada (success). */
export function TemplateStateTag({ state }: { state: string }) {
  return (
    <Tag minimal intent={state === 'PUBLICADA' ? 'success' : 'warning'} icon={state === 'PUBLICADA' ? 'lock' : 'edit'}>
      {TEMPLATE_STATE_LABELS[state] ?? state}
    </Tag>
  );
}
