import { Tag, type Intent } from '@blueprintjs/core';
import { CONTRACT_STATE_LABELS, type ContractState } from '../../../schemas/administracion/contracts';

const INTENTS: Record<ContractState, Intent> = {
  BORRADOR: 'none',
  EMITIDO: 'primary',
  FIRMADO: 'success',
  RESUELTO: 'warning',
  ANULADO: 'danger',
};

/** A contract's state as a tag (Borrador, Emitido, Firmado, Resuelto, Anulado). */
export function ContractStateTag({ state }: { state: string }) {
  const known = state in INTENTS ? (state as ContractState) : null;
  return (
    <Tag intent={known ? INTENTS[known] : 'none'} minimal={known === 'BORRADOR'}>
      {known ? CONTRACT_STATE_LABELS[known] : state}
    </Tag>
  );
}
