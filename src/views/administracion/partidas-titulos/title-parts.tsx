import { Classes, Icon, Tag, type Intent } from '@blueprintjs/core';
import { formatDate } from '../../../lib/dates';
import { TITLE_STATE_LABELS, type TitleProcess, type TitleState } from '../../../schemas/administracion/titles';

/** The colour of each state's tag and board card (docs/domain.md "Titles at SUNARP"). */
export const TITLE_STATE_INTENT: Record<TitleState, Intent> = {
  PENDIENTE: 'none',
  MINUTA_FIRMADA: 'none',
  ESCRITURA: 'primary',
  PRESENTADO: 'primary',
  OBSERVADO: 'warning',
  LIQUIDADO: 'warning',
  TACHADO: 'danger',
  INSCRITO: 'success',
  ENTREGADO: 'success',
};

/** A state as a tag. */
export function TitleStateTag({ state }: { state: TitleState }) {
  return (
    <Tag minimal intent={TITLE_STATE_INTENT[state]} className="titles-nowrap">
      {TITLE_STATE_LABELS[state]}
    </Tag>
  );
}

/** "1 día" / "12 días". */
export const daysText = (days: number) => (days === 1 ? '1 día' : `${days.toLocaleString('es-PE')} días`);

/**
 * The asiento de presentación's last day, with a warning icon and text once its notice is due (5
 * working days before); "—" when no asiento runs.
 */
export function DeadlineCell({ process }: { process: Pick<TitleProcess, 'presentation'> }) {
  const p = process.presentation;
  if (!p) return <span className={Classes.TEXT_MUTED}>—</span>;
  if (!p.notice_due) return <span className="titles-nowrap">{formatDate(p.deadline)}</span>;
  return (
    <span className="titles-nowrap titles-deadline-due">
      <Icon icon="warning-sign" intent="warning" size={14} aria-hidden />
      <span>{formatDate(p.deadline)}</span>
      <span className="titles-deadline-note">Vence pronto</span>
    </span>
  );
}
