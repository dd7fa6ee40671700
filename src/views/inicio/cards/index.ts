import type { ComponentType } from 'react';
import type { DashboardCardData } from '../../../machines/inicio/dashboard.machine';
import type { DashboardCardId } from '../../../schemas/inicio/dashboard';
import type { CardBodyProps } from './card-props';
import { CollectionsCardBody } from './CollectionsCard';
import { CommissionsCardBody } from './CommissionsCard';
import { DueSoonCardBody } from './DueSoonCard';
import { ExpiringReservationsCardBody } from './ExpiringReservationsCard';
import { FollowUpsCardBody } from './FollowUpsCard';
import { LateCustomersCardBody } from './LateCustomersCard';
import { LeadsCardBody } from './LeadsCard';
import { LotsCardBody } from './LotsCard';
import { OverdueCardBody } from './OverdueCard';
import { PaymentsReviewCardBody } from './PaymentsReviewCard';
import { SalesCardBody } from './SalesCard';
import { TopAgentsCardBody } from './TopAgentsCard';

/** How each card of Inicio draws its figures, by card id; `wide` cards (with a chart or a wide table) take two grid columns. */
export const CARD_BODIES: { [K in DashboardCardId]: { body: ComponentType<CardBodyProps<DashboardCardData[K]>>; wide?: boolean } } = {
  sales: { body: SalesCardBody, wide: true },
  collections: { body: CollectionsCardBody },
  overdue: { body: OverdueCardBody },
  'payments-review': { body: PaymentsReviewCardBody },
  'due-soon': { body: DueSoonCardBody },
  'late-customers': { body: LateCustomersCardBody, wide: true },
  'follow-ups': { body: FollowUpsCardBody },
  'expiring-reservations': { body: ExpiringReservationsCardBody },
  commissions: { body: CommissionsCardBody },
  'top-agents': { body: TopAgentsCardBody },
  leads: { body: LeadsCardBody },
  lots: { body: LotsCardBody, wide: true },
};
