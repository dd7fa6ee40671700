import { Button, Callout, Classes, Icon } from '@blueprintjs/core';
import { TITLE_STATES, TITLE_STATE_LABELS, type TitleBoard as Board, type TitleState } from '../../../schemas/administracion/titles';
import { TITLE_STATE_INTENT } from './title-parts';

/**
 * The board: one card per state with its count of processes (every state, 0 included) and the
 * number whose asiento warning is due. A card is a toggle button: pressed, the list shows that state
 * only; pressed again (or "Todos"), every state. Everything comes from the page machine.
 */
export function TitleBoard({
  board,
  loading,
  error,
  selected,
  onSelect,
  onRetry,
}: {
  board: Board | null;
  loading: boolean;
  error: string | null;
  /** The list's state filter. */
  selected: string | undefined;
  onSelect: (state: TitleState | undefined) => void;
  onRetry: () => void;
}) {
  if (error)
    return (
      <Callout intent="warning" className="titles-board" title="No se pudo cargar el tablero">
        {error} <Button size="small" variant="minimal" text="Reintentar" onClick={onRetry} />
      </Callout>
    );
  const counts = new Map(board?.counts.map((c) => [c.state, c.count]) ?? []);
  return (
    <section className="titles-board" aria-label="Trámites por estado" aria-busy={loading}>
      <ul className="titles-board-cards">
        <li>
          <button
            type="button"
            className={`titles-board-card${selected === undefined ? ' is-selected' : ''}`}
            aria-pressed={selected === undefined}
            onClick={() => onSelect(undefined)}
          >
            <span className="titles-board-label">Todos</span>
            <span className="titles-board-count">{board ? board.total.toLocaleString('es-PE') : '…'}</span>
          </button>
        </li>
        {TITLE_STATES.map((state) => (
          <li key={state}>
            <button
              type="button"
              className={`titles-board-card titles-intent-${TITLE_STATE_INTENT[state]}${selected === state ? ' is-selected' : ''}`}
              aria-pressed={selected === state}
              onClick={() => onSelect(selected === state ? undefined : state)}
            >
              <span className="titles-board-label">{TITLE_STATE_LABELS[state]}</span>
              <span className="titles-board-count">{board ? (counts.get(state) ?? 0).toLocaleString('es-PE') : '…'}</span>
            </button>
          </li>
        ))}
      </ul>
      {board && board.notice_due > 0 ? (
        <p className={`titles-board-notice ${Classes.TEXT_MUTED}`}>
          <Icon icon="warning-sign" intent="warning" size={14} aria-hidden />{' '}
          {board.notice_due === 1
            ? '1 título tiene su asiento de presentación por vencer'
            : `${board.notice_due.toLocaleString('es-PE')} títulos tienen su asiento de presentación por vencer`}
        </p>
      ) : null}
    </section>
  );
}
